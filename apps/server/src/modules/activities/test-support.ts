import type { ActivityAdmin, ActivityCreateBody } from '@coffer/contract';
import type { Database } from '../../db/client.ts';
import type { TestApp } from '../../test/harness.ts';
import { client, type TestUser } from '../../test/users.ts';

/** Activity tests: a valid activity body, created through the admin API. */
export function activityBody(over: Partial<ActivityCreateBody> = {}): ActivityCreateBody {
  const hour = 3600_000;
  return {
    titleZh: '兑换冲榜',
    titleEn: 'Swap race',
    rulesZh: '按 **兑换量** 排名',
    rulesEn: 'Ranked by **swap volume**',
    metric: 'swap_volume_usdt',
    startsAt: new Date(Date.now() - hour).toISOString(),
    endsAt: new Date(Date.now() + hour).toISOString(),
    minScore: '0',
    prizeCurrency: 'USDT',
    prizes: [
      { rankFrom: 1, rankTo: 1, amount: '100' },
      { rankFrom: 2, rankTo: 3, amount: '10' },
    ],
    ...over,
  };
}

export async function createActivity(t: Pick<TestApp, 'app'>, operator: TestUser, over: Partial<ActivityCreateBody> = {}) {
  const res = await client(t)<ActivityAdmin>('POST', '/api/admin/activities/create', {
    token: operator.token,
    body: activityBody(over),
  });
  if (res.code !== 0) throw new Error(`create activity: ${res.code} ${res.message}`);
  return res.data;
}

/** A record's created_at with its microseconds (JS dates keep milliseconds only). */
export async function createdAt(database: Database, table: 'swaps' | 'transfers', entryId: number): Promise<string> {
  const [row] = await database.sql.query<{ at: string }>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at from ${table} where entry_id = $1`,
    [entryId],
  );
  if (!row) throw new Error(`no ${table} row for entry ${entryId}`);
  return row.at;
}
