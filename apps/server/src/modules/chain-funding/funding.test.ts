import type { FundHotWalletData, Network } from '@coffer/contract';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../chain/reconcile.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';

/** POST /api/admin/chain/fund on a real anvil: the console's way to book a funding (docs/decisions/038). */
describe('operators book a funding of the hot wallet', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let alice: TestUser;
  let nets: Record<string, Network>;
  let gift: `0x${string}`;
  const live = () => t.chain.live!;
  const fund = (token: string, body: unknown) => call<FundHotWalletData>('POST', '/api/admin/chain/fund', { token, body });

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    operator = await createUser(t, { email: 'ops@fund.test', role: 'operator' });
    alice = await createUser(t, { email: 'alice@fund.test' });
    nets = Object.fromEntries((await call<Network[]>('GET', '/api/currency/onchain')).data.map((n) => [n.code, n]));
    gift = await live().local!.faucet(t.chain.hotAddress, 'ETH', parseEther('0.5'));
    await live().local!.client.waitForTransactionReceipt({ hash: gift });
  });
  afterAll(async () => {
    expect((await auditLedger(t.database)).checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  const ethDrift = async () => {
    const data = await reconcile({
      database: t.database,
      client: live().local!.client,
      wallet: t.chain.wallet,
      chainId: live().chainId,
      openIncidents: false,
    });
    return data.rows.find((r) => r.code === 'ETH')?.drift;
  };

  it('books it once after checking it on chain, audited with the operator; the drift goes back to zero', async () => {
    expect(await ethDrift()).toBe('0.5');
    const first = await fund(operator.token, { networkId: nets.ETH!.id, txHash: gift, reason: 'top-up from treasury' });
    expect(first.code).toBe(0);
    expect(first.data).toMatchObject({ amount: '0.5', replayed: false });
    const again = await fund(operator.token, { networkId: nets.ETH!.id, txHash: gift.toUpperCase().replace('0X', '0x'), reason: 'again' });
    expect(again.data).toMatchObject({ id: first.data.id, replayed: true });
    expect(await ethDrift()).toBe('0');
    const audit = await t.database.sql.query(`select actor, reason from operator_actions where action = 'chain.fund' and actor = $1`, [
      'ops@fund.test',
    ]);
    expect(audit).toEqual([{ actor: 'ops@fund.test', reason: 'top-up from treasury' }]);
  });

  it('refuses a transaction that paid nothing on that network (3031), an unknown network (4004), bad input, and users', async () => {
    expect((await fund(operator.token, { networkId: nets.USDT!.id, txHash: gift, reason: 'wrong network' })).code).toBe(3031);
    expect((await fund(operator.token, { networkId: 99_999, txHash: gift, reason: 'x' })).code).toBe(4004);
    const before = await t.database.sql.query('select id from chain_fundings');
    for (const body of [
      { networkId: nets.ETH!.id, txHash: '0x12', reason: 'x' },
      { networkId: nets.ETH!.id, txHash: gift, reason: '' },
      { networkId: nets.ETH!.id, txHash: gift, reason: 'bad\u0007reason' },
      { networkId: 'ETH', txHash: gift, reason: 'x' },
    ]) {
      const res = await fund(operator.token, body);
      expect(res.code).not.toBe(0);
      expect(res.code).not.toBe(5000);
    }
    const refused = await fund(alice.token, { networkId: nets.ETH!.id, txHash: gift, reason: 'mine' });
    expect(refused.code).toBe(4003);
    expect(await t.database.sql.query('select id from chain_fundings')).toEqual(before);
  });
});
