import type { DepositRecord, TurnoverDetail, TurnoverPage, WithdrawRecord } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

/**
 * One reference for a withdrawal and a deposit (docs/decisions/059-exact-on-tap-and-chain-references.md):
 * a withdrawal's hold entry, carried on its settle or refund lines; a deposit's credit entry. The
 * record, every statement line, the CSV and the statement's search say the same number.
 */
describe('one reference for chain records', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let eth: { network: number; currency: number };

  /** A withdrawal as the API applies it (a fee quote at the network's fee), without a chain. */
  async function withdrawal(amount: string): Promise<number> {
    const [row] = await t.database.sql.query<{ w_id: number }>(
      `with q as (insert into withdrawal_fee_quotes (user_id, network_id, fee, gas_limit, chain_gas_price_wei, gas_price_wei,
                                                    margin_percent, fees_high, expires_at)
                  select $1, id, withdraw_fee, 21000, 0, 0, 0, false, now() + interval '1 minute' from networks where id = $2 returning id)
       select a.* from q, coffer_withdraw_apply($1, $2, '0x00000000000000000000000000000000000000aa', $3::numeric, null, null, null, q.id) a`,
      [alice.uid, eth.network, amount],
    );
    return Number(row!.w_id);
  }

  async function deposit(u: TestUser, amount: string): Promise<number> {
    const [d] = await t.database.sql.query<{ id: number }>(
      `insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount)
       values ($1, $2, $3, '0xabc', '0xdef', '0x' || md5(random()::text), 0, 5, '0x01', $4::numeric) returning id`,
      [eth.network, eth.currency, u.uid, amount],
    );
    await t.database.sql.query('select * from coffer_deposit_credit_due((select chain_id from networks where id = $1), 1000000)', [
      eth.network,
    ]);
    return Number(d!.id);
  }

  const statement = (u: TestUser, body: Record<string, unknown> = {}) =>
    call<TurnoverPage>('POST', '/api/getTurnover', { token: u.token, body: { page: 1, pageSize: 50, ...body } });
  const csvRows = async (u: TestUser, query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/turnover/export.csv${query}`,
      headers: { 'x-token': u.token, 'accept-language': 'en-US' },
    });
    return res.rawPayload.toString('utf8').slice(1).split('\r\n').slice(1, -1);
  };
  const withdrawRecord = async (u: TestUser, id: number) => call<WithdrawRecord>('GET', `/api/withdraw/detail/${id}`, { token: u.token });

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
    alice = await createUser(t);
    bob = await createUser(t);
    const [n] = await t.database.sql.query<{ id: number; currency_id: number }>(
      "select n.id, n.currency_id from networks n join currencies c on c.id = n.currency_id where c.code = 'ETH' order by n.id limit 1",
    );
    eth = { network: Number(n!.id), currency: Number(n!.currency_id) };
    await fund(t, alice.uid, 'ETH', '10');
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  it('a withdrawal’s record, its hold and settle lines and their CSV rows carry its hold entry', async () => {
    const id = await withdrawal('0.5');
    await t.database.sql.query("update withdrawals set status = 'broadcast' where id = $1", [id]);
    await t.database.sql.query("update withdrawals set status = 'confirming' where id = $1", [id]);
    await t.database.sql.query("select coffer_withdraw_settle($1, '0x' || md5('settle'), 9)", [id]);
    const [hold] = await t.database.sql.query<{ entry_id: number }>(
      "select entry_id from withdrawal_entries where withdrawal_id = $1 and kind = 'withdraw_hold'",
      [id],
    );
    const reference = Number(hold!.entry_id);
    const record = await withdrawRecord(alice, id);
    expect(record.data).toMatchObject({ status: 'completed', reference });
    const list = (
      await call<{ list: WithdrawRecord[] }>('POST', '/api/withdraw/list', { token: alice.token, body: { page: 1, pageSize: 5 } })
    ).data.list;
    expect(list.find((w) => w.id === id)?.reference).toBe(reference);

    const lines = (await statement(alice, { reference })).data.list;
    // hold: available -, frozen +; settle: frozen -
    expect(lines.map((l) => [l.type, l.reference])).toEqual([
      ['withdraw_settle', reference],
      ['withdraw_hold', reference],
      ['withdraw_hold', reference],
    ]);
    expect(new Set(lines.map((l) => l.entryId)).size).toBe(2);
    const detail = await call<TurnoverDetail>('GET', `/api/getAccountantTurnover/${lines[0]!.id}`, { token: alice.token });
    expect(detail.data.reference).toBe(reference);
    const rows = await csvRows(alice, `?reference=${reference}`);
    expect(rows.map((r) => r.split(',')[0])).toEqual([String(reference), String(reference), String(reference)]);
  });

  it('a cancelled withdrawal’s refund line carries the hold entry; the refund’s own id finds nothing', async () => {
    const id = await withdrawal('0.25');
    const cancelled = await call<WithdrawRecord>('POST', `/api/withdraw/cancel/${id}`, { token: alice.token });
    expect(cancelled.data.status).toBe('cancelled');
    const [refund] = await t.database.sql.query<{ entry_id: number }>(
      "select entry_id from withdrawal_entries where withdrawal_id = $1 and kind = 'withdraw_refund'",
      [id],
    );
    const reference = cancelled.data.reference;
    expect(reference).not.toBe(Number(refund!.entry_id));
    const lines = (await statement(alice, { reference })).data.list;
    expect(lines.map((l) => l.type)).toEqual(['withdraw_refund', 'withdraw_refund', 'withdraw_hold', 'withdraw_hold']);
    expect(lines.every((l) => l.reference === reference)).toBe(true);
    expect((await statement(alice, { reference: Number(refund!.entry_id) })).data.total).toBe(0);
    // every line of the whole statement: a withdrawal's lines never show a settle or refund id
    const all = (await statement(alice, { type: 'withdraw_refund' })).data.list;
    expect(all.map((l) => l.reference)).toEqual([reference, reference]);
  });

  it('a deposit’s record and its statement line carry its credit entry; a pending one has none yet', async () => {
    const id = await deposit(bob, '0.123456789012345678');
    const record = await call<DepositRecord>('GET', `/api/deposit/getDepositInfo/${id}`, { token: bob.token });
    const [entry] = await t.database.sql.query<{ entry_id: number }>('select entry_id from deposits where id = $1', [id]);
    expect(record.data).toMatchObject({ status: 'credited', reference: Number(entry!.entry_id) });
    const lines = (await statement(bob, { reference: record.data.reference })).data.list;
    expect(lines.map((l) => [l.type, l.reference, l.amount])).toEqual([['deposit', record.data.reference, '0.123456789012345678']]);
    const rows = await csvRows(bob, `?reference=${record.data.reference}`);
    expect(rows.map((r) => r.split(',')[0])).toEqual([String(record.data.reference)]);

    const [pending] = await t.database.sql.query<{ id: number }>(
      `insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount)
       values ($1, $2, $3, '0xabc', '0xdef', '0x' || md5(random()::text), 0, 999999999, '0x01', 1) returning id`,
      [eth.network, eth.currency, bob.uid],
    );
    const waiting = await call<DepositRecord>('GET', `/api/deposit/getDepositInfo/${pending!.id}`, { token: bob.token });
    expect(waiting.data).toMatchObject({ status: 'pending', reference: null });
  });

  it('another user’s withdrawal, deposit and references are not found', async () => {
    const id = await withdrawal('0.1');
    const theirs = await withdrawRecord(bob, id);
    expect(theirs.code).toBe(4004);
    const reference = (await withdrawRecord(alice, id)).data.reference;
    expect((await statement(bob, { reference })).data.total).toBe(0);
    expect(await csvRows(bob, `?reference=${reference}`)).toEqual([]);
    const dep = await deposit(bob, '0.5');
    expect((await call('GET', `/api/deposit/getDepositInfo/${dep}`, { token: alice.token })).code).toBe(4004);
    const depRef = (await call<DepositRecord>('GET', `/api/deposit/getDepositInfo/${dep}`, { token: bob.token })).data.reference;
    expect((await statement(alice, { reference: depRef })).data.total).toBe(0);
    expect((await statement(alice, { reference: -1 })).code).toBe(1001);
  });
});
