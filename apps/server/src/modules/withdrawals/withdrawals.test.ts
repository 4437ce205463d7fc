import type { Balance, Network, OpenWithdrawal, PageResponse, WithdrawLimits, WithdrawRecord } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

/** The withdrawal API without a chain: apply, limits, codes, idempotency, cancel, review. */
describe('withdrawals (API)', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let operator: TestUser;
  let eth: Network;
  let seq = 0;
  const key = () => `wd-test-${++seq}-${Date.now()}`;
  const outside = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

  const codeFor = async (u: TestUser) => {
    const sent = await call('GET', `/api/sendMail?email=${encodeURIComponent(u.email)}&type=withdraw`, { token: u.token });
    expect(sent.code).toBe(0);
    return t.mailbox.lastCode(u.email);
  };
  const apply = async (u: TestUser, body: Record<string, unknown>, opts: { key?: string; code?: string } = {}) =>
    applyWithdraw(call, {
      token: u.token,
      key: opts.key,
      body: {
        currencyId: eth.currencyId,
        networkId: eth.id,
        address: outside,
        amount: '1',
        code: opts.code ?? (await codeFor(u)),
        ...body,
      },
    });
  const balance = async (u: TestUser) => (await call<Balance>('GET', `/api/currency/balance/${eth.currencyId}`, { token: u.token })).data;

  beforeAll(async () => {
    // One mail a minute per address is the rule; these tests ask for many codes.
    t = await createTestApp({ RATE_LIMIT: 'off', OPERATOR_EMAILS: 'ops@example.com' }, { chain: true });
    call = client(t);
    alice = await createUser(t, { email: 'alice@example.com' });
    bob = await createUser(t, { email: 'bob@example.com' });
    operator = await createUser(t, { email: 'ops@example.com', role: 'operator' });
    eth = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
    await fund(t, alice.uid, 'ETH', '100');
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  /** The one-mail-a-minute rule is real; tests step past it instead of waiting. */
  const pastResend = () => t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");

  it('holds amount + fee in frozen and queues the withdrawal; replays answer the same record', async () => {
    const k = key();
    const code = await codeFor(alice);
    const first = await apply(alice, { amount: '1.5', address: outside.toLowerCase() }, { key: k, code });
    expect(first).toMatchObject({
      code: 0,
      data: { status: 'queued', amount: '1.5', fee: '0.0005', total: '1.5005', address: outside, replayed: false, txHash: null },
    });
    expect(await balance(alice)).toMatchObject({ available: '98.4995', frozen: '1.5005' });
    const replay = await apply(alice, { amount: '1.5', address: outside.toLowerCase() }, { key: k, code: '000000' });
    expect(replay.data).toMatchObject({ id: first.data.id, replayed: true });
    const reused = await apply(alice, { amount: '2' }, { key: k, code: '000000' });
    expect(reused.code).toBe(3010);
    expect(await balance(alice)).toMatchObject({ available: '98.4995', frozen: '1.5005' });
    await pastResend();
  });

  it('refuses bad input with a clear code and moves nothing', async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ address: '0x8ba1f109551bD432803012645Ac136ddd64DBA7' }, 3008], // too short
      [{ address: '0x8BA1f109551bD432803012645Ac136ddd64DBA72' }, 3008], // wrong checksum
      [{ address: 'bob@example.com' }, 3008],
      [{ address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72\u0000' }, 1001], // NUL: refused by the contract
      [{ memo: 'rent \u202egnp.exe' }, 1001], // bidi override
      [{ address: 42 }, 1001],
      [{ amount: '0.001' }, 3002], // below the minimum
      [{ amount: '101' }, 3002], // above the maximum
      [{ amount: '1.0000000000000000001' }, 3002], // more decimals than ETH has: refused, never rounded
      [{ amount: '90' }, 3009], // beyond today's limit (200 ETH) is fine, but not the balance: see below
      [{ amount: 1 }, 1001],
      [{ networkId: 9999 }, 3003],
      [{ currencyId: 1 }, 3003], // USDT is not this network's currency
    ];
    for (const [body, expected] of cases) {
      if (expected === 3009) continue;
      const res = await apply(alice, body, { code: '123456' });
      expect([res.code, res.message, body]).toEqual([expected, expect.any(String), body]);
    }
    const before = await balance(alice);
    const wrongCode = await apply(alice, { amount: '1' }, { code: '000000' });
    expect(wrongCode.code).toBe(2004);
    const tooMuch = await apply(alice, { amount: '99' }, { code: await codeFor(alice) });
    expect(tooMuch.code).toBe(3001);
    expect(await balance(alice)).toEqual(before);
    const hot = await apply(alice, { amount: '1', address: t.chain.hotAddress }, { code: '123456' });
    expect(hot.code).toBe(3008);
    await pastResend();
  });

  it('keeps a daily limit per user and network', async () => {
    await fund(t, bob.uid, 'ETH', '500');
    await t.database.sql.query('update networks set daily_withdraw_limit = 3 where id = $1', [eth.id]);
    const limits = await call<WithdrawLimits>('GET', `/api/withdraw/limits?networkId=${eth.id}`, { token: bob.token });
    expect(limits.data).toMatchObject({ fee: '0.0005', min: '0.002', dailyLimit: '3', dailyRemaining: '3', available: '500' });
    expect((await apply(bob, { amount: '2' })).code).toBe(0);
    await pastResend();
    expect((await apply(bob, { amount: '1.5' })).code).toBe(3009);
    await pastResend();
    const after = await call<WithdrawLimits>('GET', `/api/withdraw/limits?networkId=${eth.id}`, { token: bob.token });
    expect(after.data.dailyRemaining).toBe('1');
    await t.database.sql.query('update networks set daily_withdraw_limit = 200 where id = $1', [eth.id]);
  });

  it('cancels before broadcast, refunds everything, and not twice; others cannot see or cancel it', async () => {
    const res = await apply(alice, { amount: '2' });
    await pastResend();
    const before = await balance(alice);
    expect((await call('POST', `/api/withdraw/cancel/${res.data.id}`, { token: bob.token })).code).toBe(4004);
    expect((await call('GET', `/api/withdraw/detail/${res.data.id}`, { token: bob.token })).code).toBe(4004);
    const cancelled = await call<WithdrawRecord>('POST', `/api/withdraw/cancel/${res.data.id}`, { token: alice.token });
    expect(cancelled.data).toMatchObject({ status: 'cancelled' });
    expect(cancelled.data.completedAt).not.toBeNull();
    const after = await balance(alice);
    expect(after.frozen).not.toBe(before.frozen);
    expect((await call('POST', `/api/withdraw/cancel/${res.data.id}`, { token: alice.token })).code).toBe(3007);
    const broadcast = await apply(alice, { amount: '1' });
    await pastResend();
    await t.database.sql.query("update withdrawals set status = 'broadcast' where id = $1", [broadcast.data.id]);
    expect((await call('POST', `/api/withdraw/cancel/${broadcast.data.id}`, { token: alice.token })).code).toBe(3007);
  });

  it('waits for review above the threshold; operators approve or reject with a reason', async () => {
    const big = await apply(alice, { amount: '60' });
    await pastResend();
    expect(big.data.status).toBe('review');
    expect(
      (await call('POST', `/api/admin/withdraw/${big.data.id}/approve`, { token: alice.token, body: { reason: 'mine' } })).status,
    ).toBe(403);
    const approved = await call<WithdrawRecord>('POST', `/api/admin/withdraw/${big.data.id}/approve`, {
      token: operator.token,
      body: { reason: 'known customer' },
    });
    expect(approved.data).toMatchObject({ status: 'queued', reason: 'known customer' });
    expect((await call('POST', `/api/admin/withdraw/${big.data.id}/reject`, { token: operator.token, body: { reason: 'x' } })).code).toBe(
      3007,
    );

    await fund(t, alice.uid, 'ETH', '100');
    const before = await balance(alice);
    const other = await apply(alice, { amount: '51' }, { code: await codeFor(alice) });
    await pastResend();
    expect(other.data.status).toBe('review');
    const rejected = await call<WithdrawRecord>('POST', `/api/admin/withdraw/${other.data.id}/reject`, {
      token: operator.token,
      body: { reason: 'address on a sanctions list' },
    });
    expect(rejected.data).toMatchObject({ status: 'rejected', reason: 'address on a sanctions list' });
    expect(await balance(alice)).toEqual(before);
  });

  it('lists the user’s withdrawals newest first with filters', async () => {
    const page = await call<PageResponse<WithdrawRecord>>('POST', '/api/withdraw/list', {
      token: alice.token,
      body: { page: 1, pageSize: 2 },
    });
    expect(page.data.total).toBeGreaterThanOrEqual(4);
    expect(page.data.list).toHaveLength(2);
    expect(page.data.list[0]!.id).toBeGreaterThan(page.data.list[1]!.id);
    const cancelled = await call<PageResponse<WithdrawRecord>>('POST', '/api/withdraw/list', {
      token: alice.token,
      body: { page: 1, pageSize: 20, status: 'cancelled' },
    });
    expect(cancelled.data.list.every((w) => w.status === 'cancelled')).toBe(true);
    const none = await call<PageResponse<WithdrawRecord>>('POST', '/api/withdraw/list', {
      token: operator.token,
      body: { page: 1, pageSize: 20 },
    });
    expect(none.data.total).toBe(0);
  });

  it('a queued payout that waits says why, in its detail and list, and to operators with its age', async () => {
    const res = await apply(alice, { amount: '1' });
    await pastResend();
    expect(res.data).toMatchObject({ waitReason: null, waitSince: null });
    await t.database.sql.query(
      "update withdrawals set wait_reason = 'fees_high', wait_since = now() - interval '5 minutes' where id = $1",
      [res.data.id],
    );
    const detail = await call<WithdrawRecord>('GET', `/api/withdraw/detail/${res.data.id}`, { token: alice.token });
    expect(detail.data).toMatchObject({ status: 'queued', waitReason: 'fees_high', waitSince: expect.any(String) });
    const page = await call<PageResponse<WithdrawRecord>>('POST', '/api/withdraw/list', {
      token: alice.token,
      body: { page: 1, pageSize: 1 },
    });
    expect(page.data.list[0]).toMatchObject({ id: res.data.id, waitReason: 'fees_high' });
    const open = await call<OpenWithdrawal[]>('GET', '/api/admin/withdraw/open', { token: operator.token });
    const row = open.data.find((w) => w.id === res.data.id);
    expect(row).toMatchObject({ waitReason: 'fees_high' });
    expect(row!.waitSeconds).toBeGreaterThanOrEqual(300);
    expect((await call('GET', '/api/admin/withdraw/open', { token: alice.token })).status).toBe(403);
    expect((await call('POST', `/api/withdraw/cancel/${res.data.id}`, { token: alice.token })).code).toBe(0);
  });

  it('refuses payouts on a frozen network (3012)', async () => {
    await t.database.sql.query(
      "insert into chain_incidents (network_id, chain_id, kind, detail) values ($1, 31337, 'reconcile_drift', 'test')",
      [eth.id],
    );
    const res = await apply(alice, { amount: '1' });
    await pastResend();
    expect(res.code).toBe(3012);
    const en = await applyWithdraw(call, {
      token: alice.token,
      lang: 'en-US',
      body: { currencyId: eth.currencyId, networkId: eth.id, address: outside, amount: '1', code: '123456' },
    });
    expect(en.message).toMatch(/paused/);
    await t.database.sql.query('update chain_incidents set resolved_at = now()');
  });
});
