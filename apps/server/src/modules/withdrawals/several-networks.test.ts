import type { Balance, DepositAddress, Network, WithdrawRecord } from '@coffer/contract';
import { type Address, formatUnits, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainLive } from '../../chain/runtime.ts';
import { reconcile } from '../../chain/reconcile.ts';
import { testTokenAbi } from '../../chain/test-token.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { applyWithdraw, feeQuote } from '../../test/withdraw.ts';

const L1 = 31337;
const L2 = 31338;

/**
 * One currency on two chains (docs/decisions/050-several-networks.md): the embedded anvil and
 * the local L2, each with its own runtime, driven tick by tick. One USDT balance takes deposits
 * from both; a withdrawal on the L2 is paid on the L2; each chain reconciles on its own.
 */
describe('USDT on two networks of two chains (API + both leader loops)', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let usdt: Record<number, Network>;
  const outside = '0x8ba1f109551bD432803012645Ac136ddd64DBA72' as const;

  const chain = (chainId: number) => t.chain.liveFor(chainId) as ChainLive;
  const balance = async () => (await call<Balance>('GET', `/api/currency/balance/${usdt[L1]!.currencyId}`, { token: alice.token })).data;
  const tokenBalance = (chainId: number, address: Address) =>
    chain(chainId).local!.client.readContract({
      address: chain(chainId).local!.tokens.USDT,
      abi: testTokenAbi,
      functionName: 'balanceOf',
      args: [address],
    });
  /** A block on each chain, then a tick of each chain's workers. */
  const step = async () => {
    for (const id of [L1, L2]) {
      await chain(id).local!.mine(1);
      await chain(id).tick();
    }
  };
  const code = async () => {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    await call('GET', `/api/sendMail?email=${encodeURIComponent(alice.email)}&type=withdraw`, { token: alice.token });
    return t.mailbox.lastCode(alice.email);
  };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off', LOCAL_L2: 'on' }, { chain: true });
    call = client(t);
    alice = await createUser(t, { email: 'alice@example.com' });
    const networks = (await call<Network[]>('GET', '/api/currency/onchain')).data;
    usdt = Object.fromEntries(networks.filter((n) => n.code === 'USDT').map((n) => [n.chainId, n]));
    for (const id of [L1, L2]) await chain(id).tick();
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  it('serves both chains, and lists USDT once per network with each network’s own settings', () => {
    expect(t.chain.chainIds).toEqual([L1, L2]);
    expect(t.chain.live?.chainId).toBe(L1);
    expect(usdt[L1]).toMatchObject({ name: 'ERC-20 (local)', confirmations: 3, blockSeconds: 2, withdrawFee: '1' });
    expect(usdt[L2]).toMatchObject({
      name: 'L2 (local)',
      confirmations: 1,
      blockSeconds: 1,
      withdrawFee: '0.1',
      currencyId: usdt[L1]!.currencyId,
    });
  });

  it('credits deposits on both networks to one USDT balance', async () => {
    for (const id of [L1, L2]) {
      const created = await call<DepositAddress>('POST', '/api/deposit/createAddress', {
        token: alice.token,
        body: { currencyId: usdt[id]!.currencyId, networkId: usdt[id]!.id },
      });
      expect(created.code).toBe(0);
      expect((await call('POST', '/api/deposit/faucet', { token: alice.token, body: { networkId: usdt[id]!.id } })).code).toBe(0);
    }
    for (let i = 0; i < 4; i++) await step();
    expect(await balance()).toMatchObject({ available: '2000', frozen: '0' });
    const credited = await t.database.sql.query<{ chain_id: number; amount: string }>(
      `select n.chain_id, trim_scale(d.amount)::text as amount from deposits d join networks n on n.id = d.network_id
        where d.user_id = $1 and d.status = 'credited' order by n.chain_id`,
      [alice.uid],
    );
    expect(credited).toEqual([
      { chain_id: L1, amount: '1000' },
      { chain_id: L2, amount: '1000' },
    ]);
  });

  it('quotes each network’s fee on its own chain', async () => {
    const [onL1, onL2] = [await feeQuote(call, alice.token, usdt[L1]!.id), await feeQuote(call, alice.token, usdt[L2]!.id)];
    expect(onL1).toMatchObject({ networkId: usdt[L1]!.id, minFee: '1' });
    expect(onL2).toMatchObject({ networkId: usdt[L2]!.id, minFee: '0.1' });
    // the gas is priced on each chain; a network's fee is never below its own minimum
    for (const q of [onL1!, onL2!]) expect(parseUnits(q.fee, 6) >= parseUnits(q.minFee, 6)).toBe(true);
  });

  it('withdraws USDT on the L2: paid on the L2 chain, from the one balance', async () => {
    const [l1Before, l2Before] = [await tokenBalance(L1, outside), await tokenBalance(L2, outside)];
    const quote = (await feeQuote(call, alice.token, usdt[L2]!.id))!;
    const body = { currencyId: usdt[L2]!.currencyId, networkId: usdt[L2]!.id, address: outside, amount: '100', quoteId: quote.quoteId };
    const applied = await applyWithdraw<{ id: number; total: string }>(call, { token: alice.token, body: { ...body, code: await code() } });
    const total = parseUnits('100', 6) + parseUnits(quote.fee, 6);
    expect(applied.data).toMatchObject({ total: formatUnits(total, 6) });
    let w: WithdrawRecord | undefined;
    for (let i = 0; i < 8 && w?.status !== 'completed'; i++) {
      await step();
      w = (await call<WithdrawRecord>('GET', `/api/withdraw/detail/${applied.data.id}`, { token: alice.token })).data;
    }
    expect(w).toMatchObject({ status: 'completed', confirmationsRequired: 1 });
    expect(await tokenBalance(L2, outside)).toBe(l2Before + parseUnits('100', 6));
    expect(await tokenBalance(L1, outside)).toBe(l1Before);
    expect(await balance()).toMatchObject({ available: formatUnits(parseUnits('2000', 6) - total, 6), frozen: '0' });
  });

  it('reconciles each chain on its own: every network agrees with the ledger to the last unit', async () => {
    for (const id of [L1, L2]) {
      const report = await reconcile({ database: t.database, client: chain(id).local!.client, wallet: t.chain.wallet, chainId: id });
      expect(report.rows.filter((r) => !r.ok)).toEqual([]);
      expect(report.rows.map((r) => r.code).sort()).toEqual(['ETH', 'USDC', 'USDT']);
    }
    const incidents = await t.database.sql.query("select id from chain_incidents where kind = 'reconcile_drift'");
    expect(incidents).toEqual([]);
  });
});
