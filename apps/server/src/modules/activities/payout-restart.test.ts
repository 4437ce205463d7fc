import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ActivityFundResult } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrateDatabase, openPglite, openPostgres } from '../../db/client.ts';
import { createScratchDatabase } from '../../db/scratch.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp, testDbKind } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { payoutTick } from './payout.ts';
import { createActivity, createdAt } from './test-support.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../../..');
const WINNERS = 5;
const KILL_AFTER = 2;
/** Two child processes each load tsx and open the database: slow on a shared machine. */
const SETUP_TIMEOUT_MS = 120_000;
const RUN_TIMEOUT_MS = 240_000;

/** A database the child process can open too: its own PostgreSQL database, or a PGlite directory. */
async function sharedDatabase(): Promise<{ open: () => Promise<Database>; childEnv: Record<string, string>; drop: () => Promise<void> }> {
  if (testDbKind === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-activity-'));
    return {
      open: () => openPglite(dir),
      childEnv: { CHILD_PGLITE_DIR: dir },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'coffer_t');
  return {
    open: () => openPostgres(scratch.url, 10),
    childEnv: { CHILD_DATABASE_URL: scratch.url },
    drop: scratch.drop,
  };
}

/** Runs payout-child.ts in its own node process; resolves with its exit code and signal. */
function runChild(env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'payout-child.ts')], {
      cwd: serverRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, out }));
  });
}

describe('activity payout survives a kill between two winners', () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let database: Database;
  let t: TestApp;
  let activityId: number;
  let winners: TestUser[];
  let usdt: number;
  let eth: number;

  beforeAll(async () => {
    shared = await sharedDatabase();
    database = await shared.open();
    await migrateDatabase(database);
    t = await createTestApp({}, { database });
    const call = client(t);
    const operator = await createUser(t, { role: 'operator' });
    const ids = await database.sql.query<{ id: number; code: string }>(`select id, code from currencies where code in ('USDT', 'ETH')`);
    usdt = Number(ids.find((r) => r.code === 'USDT')!.id);
    eth = Number(ids.find((r) => r.code === 'ETH')!.id);
    winners = [];
    const entries: number[] = [];
    for (let i = 0; i < WINNERS; i++) {
      const u = await createUser(t);
      await fund(t, u.uid, 'USDT', '1000');
      const res = await call<{ entryId: number }>('POST', '/api/swap/apply', {
        token: u.token,
        key: `restart-${i}-${Date.now()}`,
        body: { fromCurrencyId: usdt, toCurrencyId: eth, amount: `${100 - i * 10}` },
      });
      expect(res.code).toBe(0);
      entries.push(res.data.entryId);
      winners.push(u);
    }
    const last = new Date(await createdAt(database, 'swaps', entries.at(-1)!));
    const activity = await createActivity(t, operator, {
      startsAt: await createdAt(database, 'swaps', entries[0]!),
      endsAt: new Date(last.getTime() + 1).toISOString(),
      prizes: [
        { rankFrom: 1, rankTo: 1, amount: '30' },
        { rankFrom: 2, rankTo: 10, amount: '10' },
      ],
    });
    activityId = activity.id;
    const funded = await call<ActivityFundResult>('POST', '/api/admin/activities/fund', {
      token: operator.token,
      body: { id: activityId, amount: '120', reason: 'prizes' },
    });
    expect(funded.data.status).toBe('ended');
    await t.close();
    await database.close();
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await database.close().catch(() => {});
    await shared.drop();
  });

  it(
    'the killed run paid k winners; the re-run pays the rest, nobody twice, audit green',
    async () => {
      const killed = await runChild({ ...shared.childEnv, KILL_AFTER_PRIZES: String(KILL_AFTER) });
      expect(killed.signal, killed.out).toBe('SIGKILL');

      database = await shared.open();
      const paidAfterKill = await database.sql.query<{ rank: number }>(
        'select rank from activity_winners where activity_id = $1 and entry_id is not null order by rank',
        [activityId],
      );
      expect(paidAfterKill.map((r) => r.rank)).toEqual([1, 2]);
      const [status] = await database.sql.query<{ s: string }>('select activity_status($1) as s', [activityId]);
      expect(status!.s).toBe('paying');
      await database.close();

      const rerun = await runChild(shared.childEnv);
      expect(rerun.code, rerun.out).toBe(0);
      expect(JSON.parse(rerun.out.trim().split('\n').at(-1)!)).toMatchObject({ paid: WINNERS - KILL_AFTER });

      database = await shared.open();
      expect(await payoutTick(database)).toEqual({ activities: 0, paid: 0 });
      const prizes = await database.sql.query<{ user_id: number; n: number; total: string }>(
        `select e.user_id, count(*) as n, trim_scale(sum(p.amount))::text as total from journal_entries e
       join postings p on p.entry_id = e.id join accounts a on a.id = p.account_id and a.user_id = e.user_id
       where e.kind = 'activity_prize' group by e.user_id order by e.user_id`,
      );
      expect(prizes.map((p) => [Number(p.user_id), Number(p.n), p.total])).toEqual(
        winners.map((w, i) => [w.uid, 1, i === 0 ? '30' : '10']),
      );
      const notices = await database.sql.query<{ user_id: number; n: number }>(
        `select user_id, count(*) as n from notices where kind = 'activity_prize' group by user_id order by user_id`,
      );
      expect(notices.map((n) => [Number(n.user_id), Number(n.n)])).toEqual(winners.map((w) => [w.uid, 1]));
      const [account] = await database.sql.query<{ balance: string }>(
        `select trim_scale(balance)::text as balance from accounts where user_id is null and kind = 'prizes' and currency_id = $1`,
        [usdt],
      );
      // 120 funded, 30 + 4 × 10 paid: compared as the exact decimal, not a JS number.
      expect(account!.balance).toBe('50');
      const [s] = await database.sql.query<{ s: string }>('select activity_status($1) as s', [activityId]);
      expect(s!.s).toBe('paid');
      const report = await auditLedger(database);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});
