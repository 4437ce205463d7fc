import type { Balance, DepositAddress, Network, ReconcileData, WithdrawRecord } from '@coffer/contract';
import { parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../chain/reconcile.ts';
import { testTokenAbi } from '../../chain/test-token.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { applyWithdraw } from '../../test/withdraw.ts';

/**
 * Money in and out through the API on a real anvil, the chain leader's loop driven tick by
 * tick (watcher, reconcile, sender, sweeper): deposit, credit, withdraw, settle, sweep, and
 * the chain and the ledger agree at the end.
 */
describe('money in and out on a real chain (API + leader loop)', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let nets: Record<string, Network>;
  const outside = '0x8ba1f109551bD432803012645Ac136ddd64DBA72' as const;

  const live = () => t.chain.live!;
  const balance = async (code: string) =>
    (await call<Balance>('GET', `/api/currency/balance/${nets[code]!.currencyId}`, { token: alice.token })).data;
  const code = async () => {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    expect((await call('GET', `/api/sendMail?email=${encodeURIComponent(alice.email)}&type=withdraw`, { token: alice.token })).code).toBe(
      0,
    );
    return t.mailbox.lastCode(alice.email);
  };
  const withdrawal = async (id: number) => (await call<WithdrawRecord>('GET', `/api/withdraw/detail/${id}`, { token: alice.token })).data;
  /** Ticks the leader loop, mining a block between ticks, until the withdrawal is final. */
  const settle = async (id: number) => {
    for (let i = 0; i < 12; i++) {
      await live().tick();
      const w = await withdrawal(id);
      if (['completed', 'failed'].includes(w.status)) return w;
      await live().local!.mine(1);
    }
    return withdrawal(id);
  };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    alice = await createUser(t, { email: 'alice@example.com' });
    nets = Object.fromEntries((await call<Network[]>('GET', '/api/currency/onchain')).data.map((n) => [n.code, n]));
    await live().tick();
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  it('deposits ETH and USDT through the faucet and credits them at N', async () => {
    const address = (
      await call<DepositAddress>('POST', '/api/deposit/createAddress', {
        token: alice.token,
        body: { currencyId: nets.ETH!.currencyId, networkId: nets.ETH!.id },
      })
    ).data.address;
    for (const c of ['ETH', 'USDT']) {
      expect((await call('POST', '/api/deposit/faucet', { token: alice.token, body: { networkId: nets[c]!.id } })).code).toBe(0);
    }
    await live().tick();
    await live().local!.mine(2);
    await live().tick();
    expect(await balance('ETH')).toMatchObject({ available: '1', frozen: '0' });
    expect(await balance('USDT')).toMatchObject({ available: '1000', frozen: '0' });
    // The sweeper moved the deposits to the hot wallet (custody only: balances unchanged).
    for (let i = 0; i < 6; i++) {
      await live().local!.mine(1);
      await live().tick();
    }
    const client = live().local!.client;
    expect(await client.getBalance({ address: address as `0x${string}` })).toBeLessThan(parseEther('0.01'));
    const token = await client.readContract({
      address: live().local!.tokens.USDT,
      abi: testTokenAbi,
      functionName: 'balanceOf',
      args: [address as `0x${string}`],
    });
    expect(token).toBe(0n);
    expect(await balance('USDT')).toMatchObject({ available: '1000' });
  });

  it('withdraws ETH to an outside address: queued, broadcast, confirming, completed; the chain received it once', async () => {
    const before = await live().local!.client.getBalance({ address: outside });
    const applied = await applyWithdraw(call, {
      token: alice.token,
      key: `wd-eth-${Date.now()}`,
      body: { currencyId: nets.ETH!.currencyId, networkId: nets.ETH!.id, address: outside, amount: '0.25', code: await code() },
    });
    expect(applied.data).toMatchObject({ status: 'queued', total: '0.2505' });
    expect(await balance('ETH')).toMatchObject({ available: '0.7495', frozen: '0.2505' });
    await live().tick();
    const sent = await withdrawal(applied.data.id);
    expect(['broadcast', 'confirming']).toContain(sent.status);
    expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Sent: too late to cancel.
    expect((await call('POST', `/api/withdraw/cancel/${applied.data.id}`, { token: alice.token })).code).toBe(3007);
    const done = await settle(applied.data.id);
    expect(done).toMatchObject({ status: 'completed', confirmations: 3, confirmationsRequired: 3 });
    expect(await live().local!.client.getBalance({ address: outside })).toBe(before + parseEther('0.25'));
    expect(await balance('ETH')).toMatchObject({ available: '0.7495', frozen: '0' });
  });

  it('a reverted token withdrawal is refunded in full', async () => {
    await live().local!.setBlocked('USDT', outside, true);
    const applied = await applyWithdraw(call, {
      token: alice.token,
      body: { currencyId: nets.USDT!.currencyId, networkId: nets.USDT!.id, address: outside, amount: '100', code: await code() },
    });
    expect(await balance('USDT')).toMatchObject({ available: '899', frozen: '101' });
    const done = await settle(applied.data.id);
    expect(done.status).toBe('failed');
    expect(done.reason).toBeTruthy();
    expect(await balance('USDT')).toMatchObject({ available: '1000', frozen: '0' });
    await live().local!.setBlocked('USDT', outside, false);
  });

  it('withdraws USDT; reconciliation finds no shortfall afterwards', async () => {
    const applied = await applyWithdraw(call, {
      token: alice.token,
      body: { currencyId: nets.USDT!.currencyId, networkId: nets.USDT!.id, address: outside, amount: '250.5', code: await code() },
    });
    expect((await settle(applied.data.id)).status).toBe('completed');
    const received = await live().local!.client.readContract({
      address: live().local!.tokens.USDT,
      abi: testTokenAbi,
      functionName: 'balanceOf',
      args: [outside],
    });
    expect(received).toBe(parseUnits('250.5', 6));
    expect(await balance('USDT')).toMatchObject({ available: '748.5', frozen: '0' });
    const report: ReconcileData = await reconcile({
      database: t.database,
      client: live().local!.client,
      wallet: t.chain.wallet,
      chainId: live().chainId,
    });
    expect(report.ok).toBe(true);
    expect(report.rows.every((r) => !r.drift.startsWith('-'))).toBe(true);
  });
});
