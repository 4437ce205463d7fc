import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { createTestDatabase } from '../test/harness.ts';

/** The ledger core functions behave the same on PGlite and PostgreSQL. */
describe('ledger_post core', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) => database.sql.query<T>(text, params);

  it('moves money between accounts with balanced postings and balance-after', async () => {
    const [usdt] = await q<{ id: number }>(`select id from currencies where code = 'USDT'`);
    const [u] = await q<{ id: number }>(`insert into users (email, password_hash, nickname) values ('core@x.io', 'x', 'c') returning id`);
    const [{ a }] = (await q<{ a: number }>(`select ledger_account($1, $2, 'available') as a`, [u!.id, usdt!.id])) as [{ a: number }];
    const [{ adj }] = (await q<{ adj: number }>(`select ledger_account(null, $1, 'adjustments') as adj`, [usdt!.id])) as [{ adj: number }];
    const [{ e }] = (await q<{ e: number }>(`select ledger_open_entry('adjustment', null, null, null, 'seed') as e`)) as [{ e: number }];
    await q(`select ledger_post($1, $2::bigint[], $3::numeric[])`, [e, [adj, a], ['-10.5', '10.5']]);
    const rows = await q<{ balance: string }>(`select balance from accounts where id = $1`, [a]);
    expect(rows[0]!.balance).toBe('10.500000000000000000');
    const posts = await q<{ balance_after: string }>(`select balance_after from postings where entry_id = $1 order by id`, [e]);
    expect(posts.map((p) => p.balance_after)).toEqual(['-10.500000000000000000', '10.500000000000000000']);

    // Overdraft of a user account raises CB001 and leaves nothing behind.
    const [{ e2 }] = (await q<{ e2: number }>(`select ledger_open_entry('adjustment', null, null, null, 'x') as e2`)) as [{ e2: number }];
    await expect(q(`select ledger_post($1, $2::bigint[], $3::numeric[])`, [e2, [a, adj], ['-11', '11']])).rejects.toMatchObject({
      code: 'CB001',
    });
    // An unbalanced entry raises CB900.
    await expect(q(`select ledger_post($1, $2::bigint[], $3::numeric[])`, [e2, [a, adj], ['-1', '2']])).rejects.toMatchObject({
      code: 'CB900',
    });
    const after = await q<{ balance: string }>(`select balance from accounts where id = $1`, [a]);
    expect(after[0]!.balance).toBe('10.500000000000000000');
  });
});

describe('system accounts created on demand', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('get floor 0 for house and fees, none for world and adjustments', async () => {
    const q = <T>(text: string, params?: unknown[]) => database.sql.query<T>(text, params);
    const [cur] = await q<{ id: number }>(
      `insert into currencies (code, name, decimals, icon) values ('XTS', 'Test', 2, '/currency/usdt.svg') returning id`,
    );
    const floors: Record<string, string | null> = {};
    for (const kind of ['house', 'fees', 'world', 'adjustments']) {
      const [created] = await q<{ id: number }>(`select ledger_account(null, $1, $2) as id`, [cur!.id, kind]);
      const [row] = await q<{ min_balance: string | null }>(`select min_balance from accounts where id = $1`, [created!.id]);
      floors[kind] = row!.min_balance === null ? null : String(Number(row!.min_balance));
    }
    expect(floors).toEqual({ house: '0', fees: '0', world: null, adjustments: null });
    const [swapHouse] = await q<{ same: boolean }>(`select swap_system_account($1, 'house') = ledger_account(null, $1, 'house') as same`, [
      cur!.id,
    ]);
    expect(swapHouse!.same).toBe(true);
  });
});
