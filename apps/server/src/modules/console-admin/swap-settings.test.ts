import type { AdminSwapPair, HouseLimit, HouseLimitSetData, SwapPair, SwapPairUpdateData, SwapQuoteData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

/** Console swap settings: pairs and house limits through audited SQL functions (0020). */
describe('console: swap pairs and house limits', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let user: TestUser;
  let ethUsdt: AdminSwapPair;
  let usdtEth: AdminSwapPair;
  let BTC: number;
  let USDT: number;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    operator = await createUser(t, { email: 'ops@swap.test', role: 'operator' });
    user = await createUser(t, { email: 'trader@swap.test' });
    await fund(t, user.uid, 'USDT', '100000');
    await fund(t, user.uid, 'ETH', '10');
    const pairs = (await call<AdminSwapPair[]>('GET', '/api/admin/swap/pairs', { token: operator.token })).data;
    ethUsdt = pairs.find((p) => p.fromCode === 'ETH' && p.toCode === 'USDT')!;
    usdtEth = pairs.find((p) => p.fromCode === 'USDT' && p.toCode === 'ETH')!;
    BTC = pairs.find((p) => p.fromCode === 'BTC')!.fromCurrencyId;
    USDT = ethUsdt.toCurrencyId;
  });
  afterAll(() => t.close());

  const actions = (action: string) =>
    t.database.sql.query<{
      actor: string;
      actor_user_id: number | null;
      target_id: string;
      reason: string | null;
      before: unknown;
      after: unknown;
    }>('select actor, actor_user_id, target_id, reason, before, after from operator_actions where action = $1 order by id', [action]);
  const setPair = (id: number, body: Record<string, unknown>, token = operator.token) =>
    call<SwapPairUpdateData>('POST', `/api/admin/swap/pairs/${id}`, { token, body });
  const full = {
    midRate: '2000',
    spreadBps: 0,
    feeBps: 0,
    minAmount: '0.01',
    maxAmount: '5',
    enabled: true,
    reason: 'market moved',
  };
  const quote = (amount: string) =>
    call<SwapQuoteData>('POST', '/api/swap/quote', {
      token: user.token,
      body: { fromCurrencyId: ethUsdt.fromCurrencyId, toCurrencyId: ethUsdt.toCurrencyId, amount },
    });
  const publicPair = async () =>
    (await call<{ list: SwapPair[] }>('GET', '/api/swap/rates')).data.list.find(
      (p) => p.fromCurrencyId === ethUsdt.fromCurrencyId && p.toCurrencyId === USDT,
    );

  it('refuses signed-out callers (2001) and non-operators (403) on every path', async () => {
    const paths: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/admin/swap/pairs'],
      ['POST', `/api/admin/swap/pairs/${ethUsdt.id}`, full],
      ['GET', '/api/admin/swap/house-limits'],
      ['POST', '/api/admin/swap/house-limits', { currencyId: BTC, limit: '1', reason: 'x' }],
    ];
    for (const [method, url, body] of paths) {
      expect((await call(method, url, { body })).code, url).toBe(2001);
      expect(await call(method, url, { body, token: user.token }), url).toMatchObject({ status: 403, code: 4003 });
    }
  });

  it('lists every pair with its settings as exact decimal strings', () => {
    expect(ethUsdt).toMatchObject({
      midRate: '3000',
      spreadBps: 30,
      feeBps: 10,
      feeCurrency: 'to',
      minAmount: '0.001',
      maxAmount: '50',
      enabled: true,
    });
    expect(usdtEth.midRate).toBe('0.000333333333333333');
  });

  it('a changed pair prices the very next quote and the public rates, with one audit row holding before and after', async () => {
    expect((await quote('1')).data).toMatchObject({ rate: '2991', toAmount: '2988', fee: '3' });
    const res = await setPair(ethUsdt.id, full);
    expect(res).toMatchObject({
      code: 0,
      data: { id: ethUsdt.id, midRate: '2000', spreadBps: 0, feeBps: 0, minAmount: '0.01', maxAmount: '5', changed: true },
    });
    expect((await quote('1')).data).toMatchObject({ rate: '2000', toAmount: '2000', fee: '0' });
    expect(await publicPair()).toMatchObject({ rate: '2000', effectiveRate: '2000', minAmount: '0.01', maxAmount: '5' });
    expect((await quote('6')).code).toBe(3002); // the new maximum
    const rows = await actions('swap.pair.update');
    expect(rows).toEqual([
      {
        actor: 'ops@swap.test',
        actor_user_id: operator.uid,
        target_id: String(ethUsdt.id),
        reason: 'market moved',
        before: { midRate: '3000', spreadBps: 30, feeBps: 10, minAmount: '0.001', maxAmount: '50', enabled: true },
        after: { midRate: '2000', spreadBps: 0, feeBps: 0, minAmount: '0.01', maxAmount: '5', enabled: true },
      },
    ]);
    // The same settings again change nothing and record nothing.
    expect((await setPair(ethUsdt.id, { ...full, reason: 'again' })).data.changed).toBe(false);
    expect(await actions('swap.pair.update')).toHaveLength(1);
  });

  it('a disabled pair leaves the public rates and quotes 3003; limits may be lifted (null)', async () => {
    expect((await setPair(ethUsdt.id, { ...full, enabled: false, reason: 'pause' })).code).toBe(0);
    expect(await publicPair()).toBeUndefined();
    expect((await quote('1')).code).toBe(3003);
    const open = await setPair(ethUsdt.id, { ...full, minAmount: null, maxAmount: null, reason: 'resume' });
    expect(open.data).toMatchObject({ enabled: true, minAmount: null, maxAmount: null });
    expect((await quote('1')).code).toBe(0);
    const rows = await actions('swap.pair.update');
    expect(rows.at(-1)).toMatchObject({
      before: { enabled: false, minAmount: '0.01' },
      after: { enabled: true, minAmount: null, maxAmount: null },
    });
    expect(rows).toHaveLength(3);
  });

  it('refuses bad settings (1001 shape, 3002 range, 4004 unknown pair) and changes nothing', async () => {
    const before = (await call<AdminSwapPair[]>('GET', '/api/admin/swap/pairs', { token: operator.token })).data;
    const shape = [
      { ...full, midRate: '0' },
      { ...full, midRate: '-1' },
      { ...full, midRate: 2000 },
      { ...full, spreadBps: 5001 },
      { ...full, feeBps: -1 },
      { ...full, feeBps: 1.5 },
      { ...full, reason: '' },
      { ...full, reason: 'a\u202eb' },
      { ...full, enabled: 'yes' },
      { midRate: '1', reason: 'partial' },
    ];
    for (const body of shape) expect((await setPair(usdtEth.id, body)).code, JSON.stringify(body)).toBe(1001);
    // min above max; more decimals than USDT (6) has.
    expect((await setPair(usdtEth.id, { ...full, minAmount: '10', maxAmount: '5' })).code).toBe(3002);
    expect((await setPair(usdtEth.id, { ...full, minAmount: '0.0000001' })).code).toBe(3002);
    expect((await setPair(999999, full)).code).toBe(4004);
    expect((await call('POST', '/api/admin/swap/pairs/abc', { token: operator.token, body: full })).code).toBe(1001);
    const after = (await call<AdminSwapPair[]>('GET', '/api/admin/swap/pairs', { token: operator.token })).data;
    expect(after).toEqual(before);
    expect(await actions('swap.pair.update')).toHaveLength(3);
  });

  it('applies HOUSE_LIMITS at start through the audited function (actor config), once', async () => {
    const rows = await actions('swap.house_limit.set');
    expect(rows.map((r) => [r.actor, r.actor_user_id, r.reason, (r.after as { limit: string }).limit])).toEqual([
      ['config', null, 'HOUSE_LIMITS', '1000000'],
      ['config', null, 'HOUSE_LIMITS', '1000000'],
      ['config', null, 'HOUSE_LIMITS', '500'],
      ['config', null, 'HOUSE_LIMITS', '25'],
    ]);
    expect(rows[3]!.before).toEqual({ limit: null, minBalance: '0', balance: '0' });
    // A restart with the same configuration changes nothing and records nothing.
    const again = await createTestApp({}, { database: t.database });
    await again.close();
    expect(await actions('swap.house_limit.set')).toHaveLength(4);
  });

  it('lists and sets house limits: audited before/after, no-op when unchanged, the ledger honours the new floor', async () => {
    const list = (await call<HouseLimit[]>('GET', '/api/admin/swap/house-limits', { token: operator.token })).data;
    expect(list.find((h) => h.code === 'BTC')).toEqual({ currencyId: BTC, code: 'BTC', limit: '25', balance: '0', minBalance: '-25' });
    const set = (limit: string, reason = 'risk review') =>
      call<HouseLimitSetData>('POST', '/api/admin/swap/house-limits', { token: operator.token, body: { currencyId: BTC, limit, reason } });
    expect((await set('0.001')).data).toEqual({
      currencyId: BTC,
      code: 'BTC',
      limit: '0.001',
      balance: '0',
      minBalance: '-0.001',
      changed: true,
    });
    expect((await set('0.001', 'same')).data.changed).toBe(false);
    const rows = (await actions('swap.house_limit.set')).slice(4);
    expect(rows).toEqual([
      {
        actor: 'ops@swap.test',
        actor_user_id: operator.uid,
        target_id: String(BTC),
        reason: 'risk review',
        before: { limit: '25', minBalance: '-25', balance: '0' },
        after: { limit: '0.001', minBalance: '-0.001', balance: '0' },
      },
    ]);
    // 1000 USDT ≈ 0.0166 BTC: more than the house may now owe.
    const swap = await call('POST', '/api/swap/apply', {
      token: user.token,
      key: 'console-house-limit-1',
      body: { fromCurrencyId: USDT, toCurrencyId: BTC, amount: '1000' },
    });
    expect(swap.code).toBe(3011);
    expect((await set('25', 'restore')).data.minBalance).toBe('-25');
    expect((await auditLedger(t.database)).ok).toBe(true);
  });

  it('refuses bad house limits (1001, 3003) without a row; the older /api/swap/admin/houseLimit is audited too', async () => {
    const count = (await actions('swap.house_limit.set')).length;
    for (const body of [
      { currencyId: BTC, limit: '-1', reason: 'x' },
      { currencyId: BTC, limit: '1' },
      { currencyId: BTC, limit: 1, reason: 'x' },
      { currencyId: '1', limit: '1', reason: 'x' },
    ]) {
      expect((await call('POST', '/api/admin/swap/house-limits', { token: operator.token, body })).code, JSON.stringify(body)).toBe(1001);
    }
    const unknown = await call('POST', '/api/admin/swap/house-limits', {
      token: operator.token,
      body: { currencyId: 999, limit: '1', reason: 'x' },
    });
    expect(unknown.code).toBe(3003);
    expect(await actions('swap.house_limit.set')).toHaveLength(count);
    const legacy = await call('POST', '/api/swap/admin/houseLimit', { token: operator.token, body: { currencyId: BTC, limit: '24' } });
    expect(legacy).toMatchObject({ code: 0, data: { limit: '24', minBalance: '-24' } });
    const rows = await actions('swap.house_limit.set');
    expect(rows).toHaveLength(count + 1);
    expect(rows.at(-1)).toMatchObject({ actor: 'ops@swap.test', reason: null, before: { limit: '25' }, after: { limit: '24' } });
  });

  it('a restart keeps the house limit an operator set: HOUSE_LIMITS seeds only currencies without a limit', async () => {
    const set = await call('POST', '/api/admin/swap/house-limits', {
      token: operator.token,
      body: { currencyId: BTC, limit: '3', reason: 'desk decision' },
    });
    expect(set.code).toBe(0);
    const count = (await actions('swap.house_limit.set')).length;
    // The default HOUSE_LIMITS lists BTC=25; a restart must not undo the operator's 3.
    const again = await createTestApp({}, { database: t.database });
    await again.close();
    const list = (await call<HouseLimit[]>('GET', '/api/admin/swap/house-limits', { token: operator.token })).data;
    expect(list.find((h) => h.code === 'BTC')).toMatchObject({ limit: '3', minBalance: '-3' });
    expect(await actions('swap.house_limit.set')).toHaveLength(count);
  });
});
