import type { Database } from '../../db/client.ts';
import { createUser, fund, type TestUser } from '../../test/users.ts';

/** Swap and turnover tests: users, money and calls, straight through the ledger functions. */
export type SwapTestUser = TestUser;

export function makeUser(database: Database, opts: { email?: string; role?: 'user' | 'operator' } = {}): Promise<SwapTestUser> {
  return createUser({ database }, opts);
}

export async function currencyId(database: Database, code: string): Promise<number> {
  const [row] = await database.sql.query<{ id: number }>(`select id from currencies where code = $1`, [code]);
  if (!row) throw new Error(`no currency ${code}`);
  return row.id;
}

/** Credits a user's available balance through the operator adjustment (the real ledger path). */
export async function credit(database: Database, uid: number, code: string, amount: string): Promise<number> {
  const result = await fund({ database }, uid, code, amount);
  return result.entryId;
}

/** A bare entry straight through ledger_post (no business row): for statement lines of any kind. */
export async function rawPosting(database: Database, uid: number, code: string, amount: string, kind: string): Promise<number> {
  const cid = await currencyId(database, code);
  const [{ e }] = (await database.sql.query<{ e: number }>(`select ledger_open_entry($1, null, null, null, 'test') as e`, [kind])) as [
    { e: number },
  ];
  const negated = amount.startsWith('-') ? amount.slice(1) : `-${amount}`;
  await database.sql.query(
    `select ledger_post($1, array[ledger_account(null, $2, 'world'), ledger_account($3, $2, 'available')], $4::numeric[])`,
    [e, cid, uid, [negated, amount]],
  );
  return e;
}

export async function balanceOf(database: Database, uid: number | null, code: string, kind = 'available'): Promise<string> {
  const cid = await currencyId(database, code);
  const rows = await database.sql.query<{ balance: string }>(
    `select balance::text as balance from accounts where currency_id = $1 and kind = $2 and user_id is not distinct from $3`,
    [cid, kind, uid],
  );
  return rows[0] ? rows[0].balance.replace(/\.?0+$/, '') || '0' : '0';
}
