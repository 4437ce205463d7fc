import crypto from 'node:crypto';
import type { Envelope } from '@coffer/contract';
import { createSession, TOKEN_HEAD } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import type { TestApp } from '../../test/harness.ts';

/** Swap and turnover tests: users, money and calls, straight through the ledger functions. */
export interface SwapTestUser {
  uid: number;
  email: string;
  token: string;
}

export async function makeUser(database: Database, opts: { email?: string; role?: 'user' | 'operator' } = {}): Promise<SwapTestUser> {
  const email = opts.email ?? `s-${crypto.randomBytes(5).toString('hex')}@test.coffer`;
  const [row] = await database.sql.query<{ id: number }>(
    `insert into users (email, password_hash, nickname, role) values ($1, 'no-login', $2, $3) returning id`,
    [email, email.split('@')[0], opts.role ?? 'user'],
  );
  const token = await createSession(database.db, row!.id, 1, {});
  return { uid: row!.id, email, token: TOKEN_HEAD + token };
}

export async function currencyId(database: Database, code: string): Promise<number> {
  const [row] = await database.sql.query<{ id: number }>(`select id from currencies where code = $1`, [code]);
  if (!row) throw new Error(`no currency ${code}`);
  return row.id;
}

/** Credits a user's available balance from the adjustments account (one entry). */
export async function credit(database: Database, uid: number, code: string, amount: string, kind = 'adjustment') {
  const cid = await currencyId(database, code);
  const [{ e }] = (await database.sql.query<{ e: number }>(`select ledger_open_entry($1, null, null, null, 'test') as e`, [
    kind,
  ])) as [{ e: number }];
  await database.sql.query(
    `select ledger_post($1, array[ledger_account(null, $2, 'adjustments'), ledger_account($3, $2, 'available')], $4::numeric[])`,
    [e, cid, uid, [`-${amount}`, amount]],
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

export interface Call<T> extends Envelope<T> {
  status: number;
}

export function caller(t: Pick<TestApp, 'app'>) {
  return async function call<T = unknown>(
    method: 'GET' | 'POST',
    url: string,
    opts: { token?: string; body?: unknown; key?: string; lang?: string } = {},
  ): Promise<Call<T>> {
    const headers: Record<string, string> = {};
    if (opts.token) headers['x-token'] = opts.token;
    if (opts.key) headers['idempotency-key'] = opts.key;
    if (opts.lang) headers['accept-language'] = opts.lang;
    const res = await t.app.inject({ method, url, headers, ...(opts.body !== undefined && { payload: opts.body as object }) });
    return { status: res.statusCode, ...(res.json() as Envelope<T>) };
  };
}
