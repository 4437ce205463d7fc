import type {
  AdjustmentPage,
  AuditTrailPage,
  DashboardData,
  LedgerAuditRunData,
  Network,
  SwapApplyData,
  WithdrawRecord,
} from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

/**
 * Console dashboard, audit trail, ledger audit runs and adjustments log; and the older operator
 * writes (adjust, withdrawal review, incident resolve) now leave one audit-trail row each.
 */
describe('console: dashboard, audit trail, ledger', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let eth: Network;
  let usdt: number;
  let seq = 0;
  const key = () => `console-test-${++seq}-${Date.now()}`;
  const outside = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    operator = await createUser(t, { email: 'ops@dash.test', role: 'operator' });
    alice = await createUser(t, { email: 'alice@dash.test' });
    bob = await createUser(t, { email: 'bob@dash.test' });
    eth = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
    const [row] = await t.database.sql.query<{ id: number }>(`select id from currencies where code = 'USDT'`);
    usdt = row!.id;
  });
  afterAll(async () => {
    expect((await auditLedger(t.database)).checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  const trail = async (query = '') => (await call<AuditTrailPage>('GET', `/api/admin/audit-trail${query}`, { token: operator.token })).data;
  const rowsOf = async (action: string) => (await trail(`?action=${action}&pageSize=100`)).list.filter((r) => r.action === action);
  const withdraw = async (u: TestUser, amount: string) => {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    expect((await call('GET', `/api/sendMail?email=${encodeURIComponent(u.email)}&type=withdraw`, { token: u.token })).code).toBe(0);
    const code = await t.mailbox.lastCode(u.email);
    return applyWithdraw(call, {
      token: u.token,
      key: key(),
      body: { currencyId: eth.currencyId, networkId: eth.id, address: outside, amount, code },
    });
  };
  const dashboard = async () => (await call<DashboardData>('GET', '/api/admin/dashboard', { token: operator.token })).data;

  it('refuses signed-out callers (2001) and non-operators (403) on every path', async () => {
    const paths: ['GET' | 'POST', string][] = [
      ['GET', '/api/admin/dashboard'],
      ['GET', '/api/admin/audit-trail'],
      ['POST', '/api/admin/ledger/audit/run'],
      ['GET', '/api/admin/ledger/adjustments'],
    ];
    for (const [method, url] of paths) {
      expect((await call(method, url)).code, url).toBe(2001);
      expect(await call(method, url, { token: alice.token }), url).toMatchObject({ status: 403, code: 4003 });
    }
  });

  it('shows exactly the users, balances, swap volume and reviews the test made', async () => {
    await fund(t, alice.uid, 'ETH', '100');
    await fund(t, alice.uid, 'USDT', '100');
    await fund(t, bob.uid, 'USDT', '1000');
    const swap = (amount: string) =>
      call<SwapApplyData>('POST', '/api/swap/apply', {
        token: alice.token,
        key: key(),
        body: { fromCurrencyId: eth.currencyId, toCurrencyId: usdt, amount },
      });
    // 1 ETH at 2991, fee ⌈2.991⌉ at USDT's 2 display decimals: 2988 USDT, fee 3; 0.5 ETH: 1494, fee 1.5.
    expect((await swap('1')).data).toMatchObject({ toAmount: '2988', fee: '3' });
    const older = await swap('0.5');
    expect(older.data).toMatchObject({ toAmount: '1494', fee: '1.5' });
    await t.database.sql.query(`update swaps set created_at = now() - interval '2 days' where id = $1`, [older.data.id]);
    const review = await withdraw(alice, '60');
    expect(review.data).toMatchObject({ status: 'review', total: '60.0005' });
    expect((await call('POST', `/api/admin/users/${bob.uid}/disable`, { token: operator.token, body: { reason: 'test' } })).code).toBe(0);

    const d = await dashboard();
    expect(d.users).toEqual({ total: 3, new24h: 3, disabled: 1 });
    const byCode = Object.fromEntries(d.balances.map(({ currencyId: _id, ...b }) => [b.code, b]));
    expect(byCode.ETH).toEqual({
      code: 'ETH',
      usersAvailable: '38.4995',
      usersFrozen: '60.0005',
      house: '1.5',
      fees: '0',
      // the local chain's genesis funding of the hot wallet, booked world -> float (decision 038)
      world: '-1000',
      adjustments: '-100',
    });
    expect(byCode.USDT).toEqual({
      code: 'USDT',
      usersAvailable: '5582',
      usersFrozen: '0',
      house: '-4486.5',
      fees: '4.5',
      world: '-1000000', // the genesis funding, as for ETH
      adjustments: '-1100',
    });
    expect(byCode.BTC).toMatchObject({ usersAvailable: '0', house: '0' });
    const volume = Object.fromEntries(d.swapVolume.map(({ currencyId: _id, ...v }) => [v.code, v]));
    expect(volume.ETH).toEqual({ code: 'ETH', sold24h: '1', bought24h: '0', sold7d: '1.5', bought7d: '0' });
    expect(volume.USDT).toEqual({ code: 'USDT', sold24h: '0', bought24h: '2988', sold7d: '0', bought7d: '4482' });
    expect(d.withdrawalsInReview).toBe(1);
    expect(d.lastAudit).toBeNull();
  });

  it('shows custody per network from the latest reconciliation, and open hot-wallet alerts', async () => {
    expect((await dashboard()).custody).toEqual([]);
    await t.database.sql.query(
      `insert into reconcile_snapshots (network_id, block_number, hot, cold, deposit_addresses, float, drift, ok)
       values ($1, 42, 900.5, 100, 3.25, 1000, 0, true)`,
      [eth.id],
    );
    await t.database.sql.query(
      `insert into hot_alerts (network_id, kind, detail, amount) values ($1, 'below_floor', 'send at least 2 ETH', 2)`,
      [eth.id],
    );
    const d = await dashboard();
    expect(d.custody).toEqual([
      expect.objectContaining({
        networkId: eth.id,
        code: 'ETH',
        hot: '900.5',
        cold: '100',
        depositAddresses: '3.25',
        float: '1000',
        drift: '0',
        ok: true,
        block: '42',
      }),
    ]);
    expect(d.hotAlerts).toEqual([expect.objectContaining({ networkId: eth.id, code: 'ETH', amount: '2', detail: 'send at least 2 ETH' })]);
    await t.database.sql.query(`update hot_alerts set closed_at = now()`);
    expect((await dashboard()).hotAlerts).toEqual([]);
    // a user is refused
    expect((await call('GET', '/api/admin/dashboard', { token: alice.token })).code).not.toBe(0);
  });

  it('runs the ledger audit, keeps the run, and the dashboard shows the latest', async () => {
    const res = await call<LedgerAuditRunData>('POST', '/api/admin/ledger/audit/run', { token: operator.token });
    expect(res).toMatchObject({ code: 0, data: { run: { ok: true, actor: 'ops@dash.test' }, report: { ok: true } } });
    expect(Object.values(res.data.run.summary).every((n) => n === 0)).toBe(true);
    expect(Object.keys(res.data.run.summary).sort()).toEqual(res.data.report.checks.map((c) => c.name).sort());
    expect((await dashboard()).lastAudit).toEqual(res.data.run);
    const rows = await rowsOf('ledger.audit.run');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ targetType: 'ledger_audit_run', targetId: String(res.data.run.id), after: { ok: true } });
  });

  it('withdrawal approve and reject each leave one audit row with the status before and after', async () => {
    const [first] = (await call<WithdrawRecord[]>('GET', '/api/admin/withdraw/open', { token: operator.token })).data;
    const approved = await call<WithdrawRecord>('POST', `/api/admin/withdraw/${first!.id}/approve`, {
      token: operator.token,
      body: { reason: 'known customer' },
    });
    expect(approved.data.status).toBe('queued');
    expect((await call('POST', `/api/admin/withdraw/${first!.id}/reject`, { token: operator.token, body: { reason: 'x' } })).code).toBe(
      3007,
    );
    await fund(t, alice.uid, 'ETH', '20');
    const other = await withdraw(alice, '51');
    expect(other.data.status).toBe('review');
    const rejected = await call<WithdrawRecord>('POST', `/api/admin/withdraw/${other.data.id}/reject`, {
      token: operator.token,
      body: { reason: 'sanctions list' },
    });
    expect(rejected.data.status).toBe('rejected');
    expect((await dashboard()).withdrawalsInReview).toBe(0);
    expect(await rowsOf('withdrawal.approve')).toMatchObject([
      {
        actor: 'ops@dash.test',
        targetType: 'withdrawal',
        targetId: String(first!.id),
        reason: 'known customer',
        before: { status: 'review' },
        after: { status: 'queued' },
      },
    ]);
    expect(await rowsOf('withdrawal.reject')).toMatchObject([
      { targetId: String(other.data.id), reason: 'sanctions list', before: { status: 'review' }, after: { status: 'rejected' } },
    ]);
  });

  it('resolving a chain incident leaves one audit row; again is 3007 and unknown 4004, without rows', async () => {
    const [row] = await t.database.sql.query<{ id: number }>(
      "insert into chain_incidents (network_id, chain_id, kind, detail) values ($1, 31337, 'reconcile_drift', 'test') returning id",
      [eth.id],
    );
    const url = `/api/admin/chain/incidents/${row!.id}/resolve`;
    const res = await call<{ resolvedAt: string | null }>('POST', url, { token: operator.token, body: { resolution: 'drift explained' } });
    expect(res.code).toBe(0);
    expect(res.data.resolvedAt).not.toBeNull();
    expect((await call('POST', url, { token: operator.token, body: { resolution: 'again' } })).code).toBe(3007);
    expect(
      (await call('POST', '/api/admin/chain/incidents/999999/resolve', { token: operator.token, body: { resolution: 'x' } })).code,
    ).toBe(4004);
    expect(await rowsOf('chain.incident.resolve')).toMatchObject([
      {
        targetType: 'chain_incident',
        targetId: String(row!.id),
        reason: 'drift explained',
        before: { resolvedAt: null },
        after: { resolvedAt: res.data.resolvedAt, resolution: 'drift explained' },
      },
    ]);
  });

  it('an adjustment leaves one audit row with the balance before and after; a replay none', async () => {
    const body = { uid: bob.uid, currency: 'USDT', amount: '0.5', direction: 'debit', reason: 'fee correction' };
    const k = key();
    const first = await call('POST', '/api/admin/ledger/adjust', { token: operator.token, body, key: k });
    expect(first.code).toBe(0);
    expect(
      (await call<{ replayed: boolean }>('POST', '/api/admin/ledger/adjust', { token: operator.token, body, key: k })).data.replayed,
    ).toBe(true);
    const rows = (await rowsOf('ledger.adjust')).filter((r) => r.actor === 'ops@dash.test');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorUserId: operator.uid,
      targetType: 'user',
      targetId: String(bob.uid),
      reason: 'fee correction',
      before: { currency: 'USDT', available: '1000' },
      after: { currency: 'USDT', available: '999.5', amount: '-0.5' },
    });
    // The funding in this file went the same way (actor "test").
    expect((await rowsOf('ledger.adjust')).filter((r) => r.actor === 'test')).toHaveLength(4);
  });

  it('lists the adjustments log newest first, per user, paged', async () => {
    const all = (await call<AdjustmentPage>('GET', '/api/admin/ledger/adjustments', { token: operator.token })).data;
    expect(all.total).toBe(5);
    expect(all.list[0]).toMatchObject({
      uid: bob.uid,
      email: 'bob@dash.test',
      code: 'USDT',
      amount: '-0.5',
      reason: 'fee correction',
      actor: 'ops@dash.test',
      actorUserId: operator.uid,
    });
    const bobs = (
      await call<AdjustmentPage>('GET', `/api/admin/ledger/adjustments?uid=${bob.uid}&pageSize=1&page=2`, { token: operator.token })
    ).data;
    expect(bobs).toMatchObject({ total: 2, page: 2, pageSize: 1, list: [{ amount: '1000', actor: 'test', actorUserId: null }] });
    for (const q of ['?page=0', '?uid=abc', '?pageSize=1000']) {
      expect((await call('GET', `/api/admin/ledger/adjustments${q}`, { token: operator.token })).code, q).toBe(1001);
    }
  });

  it('filters the audit trail by actor, action prefix and target, newest first, paged', async () => {
    const mine = await trail('?actor=OPS@dash.test');
    expect(mine.list.every((r) => r.actor === 'ops@dash.test')).toBe(true);
    expect(mine.list.map((r) => r.action)).toEqual([
      'ledger.adjust',
      'chain.incident.resolve',
      'withdrawal.reject',
      'withdrawal.approve',
      'ledger.audit.run',
      'user.disable',
    ]);
    expect(mine.list[0]!.id).toBeGreaterThan(mine.list[1]!.id);
    expect((await trail('?action=withdrawal')).total).toBe(2);
    expect((await trail('?action=withdrawal.')).total).toBe(2);
    expect((await trail('?action=withdraw')).total).toBe(0); // a dotted prefix, not a substring
    expect((await trail('?action=swap.house_limit')).list.every((r) => r.actor === 'config')).toBe(true);
    expect((await trail(`?targetType=user&targetId=${bob.uid}`)).list.map((r) => r.action)).toEqual([
      'ledger.adjust',
      'user.disable',
      'ledger.adjust',
    ]);
    const paged = await trail('?actor=ops@dash.test&page=2&pageSize=4');
    expect(paged).toMatchObject({ total: 6, page: 2, pageSize: 4 });
    expect(paged.list.map((r) => r.action)).toEqual(['ledger.audit.run', 'user.disable']);
    expect(paged.list[1]).toMatchObject({ targetId: String(bob.uid), before: { disabled: false }, after: { disabled: true } });
    for (const q of ['?action=User', '?action=a..b', '?page=0', `?actor=${encodeURIComponent('a\u0000')}`]) {
      expect((await call('GET', `/api/admin/audit-trail${q}`, { token: operator.token })).code, q).toBe(1001);
    }
  });
});
