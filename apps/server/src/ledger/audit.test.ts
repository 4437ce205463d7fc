import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { createTestDatabase } from '../test/harness.ts';
import { createUser } from '../test/users.ts';
import { adjustBalance } from './adjust.ts';
import { auditLedger } from './audit.ts';

/**
 * The audit must notice every kind of corruption. Each case breaks the ledger behind the
 * functions' back (plain SQL, constraints dropped where they would stop it), audits, then
 * repairs, so the next case starts from a clean ledger.
 */
describe('ledger audit', () => {
  let database: Database;
  let alice: number;
  let bob: number;
  let usdt: number;
  let aliceAcc: number;
  let world: number;
  const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) => database.sql.query<T>(text, params);
  const failing = async () => {
    const report = await auditLedger(database);
    expect(report.ok).toBe(report.checks.every((c) => c.ok));
    return Object.fromEntries(report.checks.filter((c) => !c.ok).map((c) => [c.name, c.violations]));
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    alice = (await createUser({ database }, { email: 'a@audit.test' })).uid;
    bob = (await createUser({ database }, { email: 'b@audit.test' })).uid;
    await adjustBalance(database, {
      user: { uid: alice },
      currency: 'USDT',
      amount: '100',
      direction: 'credit',
      reason: 'seed',
      actor: 't',
      actorUserId: null,
    });
    usdt = Number((await q<{ id: number }>(`select id from currencies where code = 'USDT'`))[0]!.id);
    await q(`select * from coffer_transfer_apply($1, $2, null, null, $3, 10, null, 'uid', null, null, null, null)`, [alice, bob, usdt]);
    await q(`select * from coffer_transfer_apply($1, $2, null, null, $3, 5, null, 'uid', null, null, null, null)`, [bob, alice, usdt]);
    aliceAcc = Number((await q<{ id: number }>(`select ledger_account($1, $2, 'available') as id`, [alice, usdt]))[0]!.id);
    world = Number((await q<{ id: number }>(`select ledger_account(null, $1, 'world') as id`, [usdt]))[0]!.id);
  });
  afterAll(() => database.close());

  it('passes a healthy ledger', async () => {
    const report = await auditLedger(database);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'currency_sums_to_zero',
        'balance_equals_sum_of_postings',
        'balance_equals_latest_balance_after',
        'posting_balance_after_chain',
        'user_accounts_not_negative',
        'accounts_within_floor',
        'entry_balanced_per_currency',
        'entry_has_two_postings',
        'ledger_row_references_exist',
        'posting_currency_matches_account',
        'idempotency_key_unique',
        'business_row_entry_exists',
        'entry_referenced_once',
        'entry_has_business_row',
      ]),
    );
  });

  it('catches a balance changed directly', async () => {
    await q('update accounts set balance = balance + 1 where id = $1', [aliceAcc]);
    expect(await failing()).toEqual({
      currency_sums_to_zero: 1,
      balance_equals_sum_of_postings: 1,
      balance_equals_latest_balance_after: 1,
    });
    const report = await auditLedger(database);
    const sample = report.checks.find((c) => c.name === 'balance_equals_sum_of_postings')!.sample[0]!;
    expect(sample).toMatchObject({ balance: '96.000000000000000000', postings_total: '95.000000000000000000' });
    await q('update accounts set balance = balance - 1 where id = $1', [aliceAcc]);
    expect(await failing()).toEqual({});
  });

  it('catches an unbalanced posting (money created)', async () => {
    const entry = Number((await q<{ id: number }>('select min(entry_id) as id from transfers'))[0]!.id);
    await q('update accounts set balance = balance + 7 where id = $1', [world]);
    const [p] = await q<{ id: number }>(
      `insert into postings (entry_id, account_id, currency_id, amount, balance_after)
       select $1, id, currency_id, 7, balance from accounts where id = $2 returning id`,
      [entry, world],
    );
    expect(await failing()).toEqual({ currency_sums_to_zero: 1, entry_balanced_per_currency: 1 });
    await q('delete from postings where id = $1', [p!.id]);
    await q('update accounts set balance = balance - 7 where id = $1', [world]);
    expect(await failing()).toEqual({});
  });

  it('catches an entry without postings or without its business record', async () => {
    const [e] = await q<{ id: number }>(`insert into journal_entries (kind) values ('transfer') returning id`);
    expect(await failing()).toEqual({ entry_has_two_postings: 1, entry_has_business_row: 1 });
    await q('delete from journal_entries where id = $1', [e!.id]);
  });

  it('accepts a refusal kept under its key (decision 012) but not one that moved money or has a record', async () => {
    const [e] = await q<{ id: number }>(
      `insert into journal_entries (kind, user_id, idempotency_key, request_hash, refusal)
       values ('transfer', $1, 'refused-key-0001', 'h', 'CB001') returning id`,
      [alice],
    );
    expect(await failing()).toEqual({});
    const [t] = await q<{ id: number; entry_id: number }>('select id, entry_id from transfers order by id limit 1');
    await q('update transfers set entry_id = $2 where id = $1', [t!.id, e!.id]);
    expect(await failing()).toEqual({ refused_entry_has_no_business_row: 1, entry_has_business_row: 1 });
    await q('update transfers set entry_id = $2 where id = $1', [t!.id, t!.entry_id]);
    const [p] = await q<{ id: number }>('select id from postings where entry_id = $1 order by id limit 1', [t!.entry_id]);
    await q('update postings set entry_id = $2 where id = $1', [p!.id, e!.id]);
    const moved = await failing();
    expect(moved.refused_entry_moves_nothing).toBe(1);
    await q('update postings set entry_id = $2 where id = $1', [p!.id, t!.entry_id]);
    await q('delete from journal_entries where id = $1', [e!.id]);
    expect(await failing()).toEqual({});
  });

  it('catches a broken balance-after chain', async () => {
    const [first] = await q<{ id: number; balance_after: string }>(
      'select id, balance_after from postings where account_id = $1 order by id limit 1',
      [aliceAcc],
    );
    await q('update postings set balance_after = balance_after + 1 where id = $1', [first!.id]);
    expect(await failing()).toEqual({ posting_balance_after_chain: 2 });
    await q('update postings set balance_after = $2 where id = $1', [first!.id, first!.balance_after]);
    expect(await failing()).toEqual({});
  });

  it('catches a posting in another currency than its account', async () => {
    const [p] = await q<{ id: number }>('select id from postings where account_id = $1 order by id limit 1', [aliceAcc]);
    await q('update postings set currency_id = currency_id + 1 where id = $1', [p!.id]);
    const result = await failing();
    expect(result.posting_currency_matches_account).toBe(1);
    expect(result.entry_balanced_per_currency).toBe(2);
    await q('update postings set currency_id = currency_id - 1 where id = $1', [p!.id]);
    expect(await failing()).toEqual({});
  });

  it('catches a business record referencing a missing or already used entry', async () => {
    const [t] = await q<{ entry_id: number }>('select entry_id from transfers order by id limit 1');
    const [dup] = await q<{ id: number }>(
      `insert into adjustments (entry_id, user_id, currency_id, amount, reason, actor) values ($1, $2, $3, 1, 'dup', 't') returning id`,
      [t!.entry_id, alice, usdt],
    );
    expect(await failing()).toEqual({ entry_referenced_once: 1 });
    await q('delete from adjustments where id = $1', [dup!.id]);
    const [ghost] = await q<{ id: number }>(
      `insert into transfers (entry_id, from_user_id, to_user_id, currency_id, amount, via) values (999999, $1, $2, $3, 1, 'uid') returning id`,
      [alice, bob, usdt],
    );
    expect(await failing()).toEqual({ business_row_entry_exists: 1 });
    await q('delete from transfers where id = $1', [ghost!.id]);
    expect(await failing()).toEqual({});
  });

  it('catches a transfer or entry naming a user or currency that does not exist (no foreign key there, decision 028)', async () => {
    const [t] = await q<{ id: number; to_user_id: number; currency_id: number; entry_id: number }>(
      'select id, to_user_id, currency_id, entry_id from transfers order by id limit 1',
    );
    await q('update transfers set to_user_id = 999999999, currency_id = 999 where id = $1', [t!.id]);
    await q('update journal_entries set user_id = 999999998 where id = $1', [t!.entry_id]);
    expect(await failing()).toEqual({ ledger_row_references_exist: 2 });
    await q('update transfers set to_user_id = $2, currency_id = $3 where id = $1', [t!.id, t!.to_user_id, t!.currency_id]);
    await q('update journal_entries set user_id = $2 where id = $1', [t!.entry_id, alice]);
    expect(await failing()).toEqual({});
  });

  it("catches a deposit or a user's event naming a user or currency that does not exist (no foreign key there, decision 067)", async () => {
    const [d] = await q<{ id: number }>(
      `insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount)
       select id, currency_id, $1, '0xaudit', '0xfrom', '0xaudit-tx', 0, 1, '0xaudit-block', 1 from networks where currency_id = $2 limit 1
       returning id`,
      [alice, usdt],
    );
    const [e] = await q<{ id: number }>(
      `insert into user_events (user_id, type, ref_id, status) values ($1, 'deposit', $2, 'pending') returning id`,
      [alice, d!.id],
    );
    expect(await failing()).toEqual({});
    await q('update deposits set user_id = 999999999 where id = $1', [d!.id]);
    expect(await failing()).toEqual({ ledger_row_references_exist: 1 });
    await q('update deposits set user_id = $2, currency_id = 999 where id = $1', [d!.id, alice]);
    expect(await failing()).toEqual({ ledger_row_references_exist: 1 });
    await q('update deposits set currency_id = $2 where id = $1', [d!.id, usdt]);
    await q('update user_events set user_id = 999999998 where id = $1', [e!.id]);
    expect(await failing()).toEqual({ ledger_row_references_exist: 1 });
    await q('delete from user_events where id = $1', [e!.id]);
    await q('delete from deposits where id = $1', [d!.id]);
    expect(await failing()).toEqual({});
  });

  it('refuses to delete a user or a currency the ledger refers to', async () => {
    await expect(q('delete from users where id = $1', [bob])).rejects.toMatchObject({ code: 'CB900' });
    await expect(q('delete from currencies where id = $1', [usdt])).rejects.toMatchObject({ code: 'CB900' });
  });

  it('refuses to delete an account, or an entry a posting or transfer names (no foreign key there, decision 030)', async () => {
    const [t] = await q<{ entry_id: number }>('select entry_id from transfers order by id limit 1');
    await expect(q('delete from accounts where id = $1', [aliceAcc])).rejects.toMatchObject({ code: 'CB900' });
    await expect(q('delete from journal_entries where id = $1', [t!.entry_id])).rejects.toMatchObject({ code: 'CB900' });
  });

  it('catches a posting naming an entry or account that does not exist', async () => {
    const [p] = await q<{ id: number; entry_id: number; account_id: number }>(
      'select id, entry_id, account_id from postings order by id limit 1',
    );
    await q('update postings set account_id = 999999999 where id = $1', [p!.id]);
    expect((await failing()).ledger_row_references_exist).toBe(1);
    await q('update postings set account_id = $2, entry_id = 999999998 where id = $1', [p!.id, p!.account_id]);
    expect((await failing()).ledger_row_references_exist).toBe(1);
    await q('update postings set entry_id = $2 where id = $1', [p!.id, p!.entry_id]);
    expect(await failing()).toEqual({});
  });

  it('catches a reused idempotency key', async () => {
    await q(`select * from coffer_transfer_apply($1, $2, null, null, $3, 1, null, 'uid', 'dup-key-0001', 'h1', null, null)`, [
      alice,
      bob,
      usdt,
    ]);
    await q('drop index journal_entries_idempotency_key');
    const [other] = await q<{ id: number }>(
      `select min(entry_id) as id from transfers where from_user_id = $1 and entry_id not in
         (select id from journal_entries where idempotency_key is not null)`,
      [alice],
    );
    await q(`update journal_entries set idempotency_key = 'dup-key-0001', request_hash = 'h2' where id = $1`, [other!.id]);
    expect(await failing()).toEqual({ idempotency_key_unique: 1 });
    await q('update journal_entries set idempotency_key = null, request_hash = null where id = $1', [other!.id]);
    await q('create unique index journal_entries_idempotency_key on journal_entries (user_id, idempotency_key)');
    expect(await failing()).toEqual({});
  });

  it('catches a user balance below zero and an account below its floor', async () => {
    await q('alter table accounts drop constraint accounts_user_floor_check');
    await q('alter table accounts drop constraint accounts_floor_check');
    const bobAcc = Number((await q<{ id: number }>(`select ledger_account($1, $2, 'available') as id`, [bob, usdt]))[0]!.id);
    // A consistent overdraft: postings and balances agree, only the floors are broken.
    const [e] = await q<{ id: number }>(`insert into journal_entries (kind, user_id) values ('transfer', $1) returning id`, [bob]);
    const [{ balance }] = (await q<{ balance: string }>('select balance from accounts where id = $1', [bobAcc])) as [{ balance: string }];
    await q('update accounts set balance = balance - ($2::numeric + 1) where id = $1', [bobAcc, balance]);
    await q('update accounts set balance = balance + ($2::numeric + 1) where id = $1', [aliceAcc, balance]);
    await q(
      `insert into postings (entry_id, account_id, currency_id, amount, balance_after)
       select $1, a.id, a.currency_id, case when a.id = $2 then -($4::numeric + 1) else ($4::numeric + 1) end, a.balance
       from accounts a where a.id in ($2, $3) order by a.id`,
      [e!.id, bobAcc, aliceAcc, balance],
    );
    await q(
      `insert into transfers (entry_id, from_user_id, to_user_id, currency_id, amount, via) values ($1, $2, $3, $4, $5::numeric + 1, 'uid')`,
      [e!.id, bob, alice, usdt, balance],
    );
    expect(await failing()).toEqual({ user_accounts_not_negative: 1, accounts_within_floor: 1 });
  });
});
