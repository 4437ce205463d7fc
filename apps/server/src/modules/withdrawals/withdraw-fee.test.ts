import type { Balance, Network, SwapRatesData, WithdrawApplyData, WithdrawQuoteData, WithdrawRecord } from '@coffer/contract';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { Decimal } from '../swap/index.ts';

/**
 * The withdrawal fee quoted from a real anvil (docs/decisions/040): it follows a base-fee
 * spike, is what the withdrawal is charged, covers the gas the payout paid, converts a token
 * network's gas at the swap rate, and a quote holds once, for its user and network, in its window.
 */
describe('withdrawal fee quotes on a real chain', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let nets: Record<string, Network>;
  let seq = 0;
  const outside = '0x8ba1f109551bD432803012645Ac136ddd64DBA72' as const;
  const live = () => t.chain.live!;
  const rpc = (method: string, params: unknown[] = []) => live().local!.client.request({ method, params } as never);
  const gwei = (n: bigint) => `0x${(n * 10n ** 9n).toString(16)}`;

  const code = async (u: TestUser) => {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    await call('GET', `/api/sendMail?email=${encodeURIComponent(u.email)}&type=withdraw`, { token: u.token });
    return t.mailbox.lastCode(u.email);
  };
  const quote = (u: TestUser, body: Record<string, unknown>, lang?: string) =>
    call<WithdrawQuoteData>('POST', '/api/withdraw/quote', { token: u.token, body, lang });
  const apply = (u: TestUser, c: string, body: Record<string, unknown>, key?: string) =>
    call<WithdrawApplyData>('POST', '/api/withdraw/apply', {
      token: u.token,
      key,
      body: { currencyId: nets.ETH!.currencyId, networkId: nets.ETH!.id, address: outside, amount: '0.5', code: c, ...body },
    });
  const balance = async (u: TestUser, c = 'ETH') =>
    (await call<Balance>('GET', `/api/currency/balance/${nets[c]!.currencyId}`, { token: u.token })).data;
  const settle = async (u: TestUser, id: number) => {
    for (let i = 0; i < 12; i++) {
      await live().tick();
      const w = (await call<WithdrawRecord>('GET', `/api/withdraw/detail/${id}`, { token: u.token })).data;
      if (['completed', 'failed'].includes(w.status)) return w;
      await live().local!.mine(1);
    }
    throw new Error(`withdrawal ${id} did not settle`);
  };
  /** Base fee of the next blocks: set, then one block mined at it. */
  const baseFee = async (g: bigint) => {
    await rpc('anvil_setNextBlockBaseFeePerGas', [gwei(g)]);
    await live().local!.mine(1);
  };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    alice = await createUser(t, { email: 'alice@example.com' });
    bob = await createUser(t, { email: 'bob@example.com' });
    nets = Object.fromEntries((await call<Network[]>('GET', '/api/currency/onchain')).data.map((n) => [n.code, n]));
    await fund(t, alice.uid, 'ETH', '10');
    await fund(t, alice.uid, 'USDT', '1000');
    await live().tick();
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  it('follows a base-fee spike; the withdrawal is charged the quote, which covers the gas the payout paid', async () => {
    await baseFee(1n);
    const calm = await quote(alice, { networkId: nets.ETH!.id });
    // 21,000 gas at about 2 gwei with 20% is 0.00005 ETH: the network's minimum fee applies.
    expect(calm.data).toMatchObject({ fee: '0.0005', minFee: '0.0005', gasLimit: '21000', feesHigh: false });
    // 100 gwei: 21,000 gas cost 0.0021 ETH, four times the network's old fixed 0.0005.
    await baseFee(100n);
    const spiked = await quote(alice, { networkId: nets.ETH!.id, amount: '0.5', address: outside });
    const price = BigInt(spiked.data.gasPriceWei);
    expect(price).toBeGreaterThanOrEqual(87n * 10n ** 9n);
    // gas x price x 1.2, rounded UP to ETH's display precision (6 decimals).
    const exact = new Decimal((21_000n * price * 120n).toString()).div('1e20');
    expect(spiked.data.fee).toBe(exact.toDecimalPlaces(6, Decimal.ROUND_UP).toFixed());
    const applied = await apply(alice, await code(alice), { quoteId: spiked.data.quoteId });
    expect(applied.data).toMatchObject({ fee: spiked.data.fee, status: 'queued' });
    expect(await balance(alice)).toMatchObject({ frozen: new Decimal('0.5').add(spiked.data.fee).toFixed() });
    const done = await settle(alice, applied.data.id);
    expect(done).toMatchObject({ status: 'completed', fee: spiked.data.fee });
    const receipt = await live().local!.client.getTransactionReceipt({ hash: done.txHash as Hex });
    const gasPaidWei = receipt.gasUsed * receipt.effectiveGasPrice;
    const feeWei = BigInt(new Decimal(done.fee).mul('1e18').toFixed());
    expect({ feeWei, gasPaidWei, covers: feeWei >= gasPaidWei }).toMatchObject({ covers: true });
    expect((await balance(alice)).available).toBe(new Decimal(10).sub('0.5').sub(done.fee).toFixed());
    await baseFee(1n);
  });

  it('quotes a token network at the swap rate, rounded up to cents, never below the minimum', async () => {
    await baseFee(100n);
    const q = await quote(alice, { networkId: nets.USDT!.id, currencyId: nets.USDT!.currencyId, amount: '5', address: outside });
    expect(q.code).toBe(0);
    const rates = (await call<SwapRatesData>('GET', '/api/swap/rates')).data.list;
    const usdtToEth = rates.find((p) => p.fromCurrency === 'USDT' && p.toCurrency === 'ETH')!;
    const costEth = new Decimal(((BigInt(q.data.gasLimit) * BigInt(q.data.gasPriceWei) * 120n + 99n) / 100n).toString()).div('1e18');
    const exact = costEth.div(usdtToEth.rate);
    const fee = new Decimal(q.data.fee);
    expect(fee.gte(exact)).toBe(true);
    expect(fee.sub(exact).lt('0.01')).toBe(true);
    expect(fee.mul(100).isInteger()).toBe(true);
    expect(fee.gt(1)).toBe(true); // about 20 USDT at 100 gwei
    await baseFee(1n);
    const calm = await quote(alice, { networkId: nets.USDT!.id });
    expect(calm.data.fee).toBe('1'); // the minimum fee
    const applied = await apply(alice, await code(alice), {
      currencyId: nets.USDT!.currencyId,
      networkId: nets.USDT!.id,
      amount: '5',
      quoteId: calm.data.quoteId,
    });
    expect(applied.data).toMatchObject({ fee: '1', total: '6' });
    expect((await call('POST', `/api/withdraw/cancel/${applied.data.id}`, { token: alice.token })).code).toBe(0);
  });

  it('refuses an expired, used, unknown, another user’s or another network’s quote, and moves nothing', async () => {
    const before = await balance(alice);
    const c = await code(alice);
    const expired = await quote(alice, { networkId: nets.ETH!.id });
    await t.database.sql.query(
      "update withdrawal_fee_quotes set expires_at = now() - interval '1 second', created_at = now() - interval '3 minutes' where id = $1",
      [expired.data.quoteId],
    );
    expect((await apply(alice, c, { quoteId: expired.data.quoteId })).code).toBe(3019);
    const bobs = await quote(bob, { networkId: nets.ETH!.id });
    expect((await apply(alice, c, { quoteId: bobs.data.quoteId })).code).toBe(3021);
    expect((await apply(alice, c, { quoteId: 987654321 })).code).toBe(3021);
    const usdt = await quote(alice, { networkId: nets.USDT!.id });
    const other = await apply(alice, c, { quoteId: usdt.data.quoteId });
    expect(other.code).toBe(3022);
    const en = await call('POST', '/api/withdraw/apply', {
      token: alice.token,
      lang: 'en-US',
      body: {
        currencyId: nets.ETH!.currencyId,
        networkId: nets.ETH!.id,
        address: outside,
        amount: '0.5',
        code: c,
        quoteId: expired.data.quoteId,
      },
    });
    expect(en.message).toMatch(/fee quote has expired/);
    expect(await balance(alice)).toEqual(before);
    // The code was not used up by the refusals: it pays with a good quote, once.
    const good = await quote(alice, { networkId: nets.ETH!.id });
    const k = `wd-fee-${++seq}-${Date.now()}`;
    const first = await apply(alice, c, { quoteId: good.data.quoteId }, k);
    expect(first.data).toMatchObject({ replayed: false, fee: good.data.fee });
    // A replay under the same key answers the same withdrawal though its quote is spent.
    const replay = await apply(alice, '000000', { quoteId: good.data.quoteId }, k);
    expect(replay.data).toMatchObject({ id: first.data.id, replayed: true, fee: good.data.fee });
    const again = await apply(alice, await code(alice), { quoteId: good.data.quoteId });
    expect(again.code).toBe(3020);
    expect((await call('POST', `/api/withdraw/cancel/${first.data.id}`, { token: alice.token })).code).toBe(0);
    expect(await balance(alice)).toEqual(before);
  });

  it('refuses bad quote requests with a clear code', async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{}, 1001],
      [{ networkId: 'x' }, 1001],
      [{ networkId: 9999 }, 3003],
      [{ networkId: nets.ETH!.id, currencyId: nets.USDT!.currencyId }, 3003],
      [{ networkId: nets.ETH!.id, amount: 'abc' }, 1001],
      [{ networkId: nets.USDT!.id, amount: '1.0000001' }, 3002],
      [{ networkId: nets.ETH!.id, address: '0x8BA1f109551bD432803012645Ac136ddd64DBA72' }, 3008],
      [{ networkId: nets.ETH!.id, address: '0x0000000000000000000000000000000000000000' }, 3013],
      [{ networkId: nets.ETH!.id, address: 'bad\u202e' }, 1001],
    ];
    for (const [body, expected] of cases) {
      const res = await quote(alice, body);
      expect([res.code, body]).toEqual([expected, body]);
    }
    expect((await call('POST', '/api/withdraw/quote', { body: { networkId: nets.ETH!.id } })).code).toBe(2001);
  });

  it('says payouts wait for fees to fall when the chain is above the cap (priced at the cap)', async () => {
    await t.database.sql.query('update networks set gas_price_cap_wei = 1000000 where id = $1', [nets.ETH!.id]);
    const q = await quote(alice, { networkId: nets.ETH!.id });
    expect(q.data).toMatchObject({ feesHigh: true, gasPriceWei: '1000000', fee: '0.0005' });
    await t.database.sql.query('update networks set gas_price_cap_wei = 200000000000 where id = $1', [nets.ETH!.id]);
  });

  it('answers a quote in a few milliseconds (measured)', async () => {
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const started = performance.now();
      expect((await quote(alice, { networkId: nets.USDT!.id, amount: '5', address: outside })).code).toBe(0);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `withdraw fee quote latency (USDT, estimateGas + feeHistory + insert): median ${times[10]!.toFixed(1)} ms, max ${times[20]!.toFixed(1)} ms`,
    );
    expect(times[10]).toBeLessThan(500);
  });
});

describe('withdrawal fee quotes without a chain', () => {
  it('refuses clearly: the network is unavailable (no node to price the gas), and stores nothing', async () => {
    const t = await createTestApp({ RATE_LIMIT: 'off' });
    try {
      const call = client(t);
      const u = await createUser(t);
      const eth = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
      const en = await call('POST', '/api/withdraw/quote', { token: u.token, lang: 'en-US', body: { networkId: eth.id } });
      expect(en).toMatchObject({ code: 3003, data: null });
      expect(en.message).toMatch(/network is unavailable \(no chain node answers\)/);
      const zh = await call('POST', '/api/withdraw/quote', { token: u.token, body: { networkId: eth.id } });
      expect(zh.message).toMatch(/区块链节点无响应/);
      expect(await t.database.sql.query('select id from withdrawal_fee_quotes')).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
