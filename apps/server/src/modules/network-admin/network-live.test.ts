import type { AdminNetwork, Balance, DepositAddress, DepositRecord, Network, PageResponse } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncLocalTokenContracts } from '../../chain/local-contracts.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

/**
 * A network change is in effect at the next tick and request, without a restart: the
 * server's own long-running watcher credits at the new depth, the API refuses at the new
 * limits at once (docs/decisions/041-network-settings.md).
 */
describe('network settings take effect without a restart', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let alice: TestUser;
  let nets: Record<string, Network>;

  const live = () => t.chain.live!;
  const set = (code: string, changes: Record<string, unknown>) =>
    call<AdminNetwork>('POST', `/api/admin/networks/${nets[code]!.id}`, { token: operator.token, body: { changes, reason: 'live test' } });
  const publicNet = async (code: string) => (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === code)!;
  const withdraw = (amount: string) =>
    applyWithdraw(call, {
      token: alice.token,
      key: `k-${Math.random()}`,
      body: {
        currencyId: nets.ETH!.currencyId,
        networkId: nets.ETH!.id,
        address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        amount,
        code: '000000',
      },
    });

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    operator = await createUser(t, { email: 'ops@live.test', role: 'operator' });
    alice = await createUser(t, { email: 'alice@live.test' });
    nets = Object.fromEntries((await call<Network[]>('GET', '/api/currency/onchain')).data.map((n) => [n.code, n]));
    await live().watcher.tick();
  });
  afterAll(() => t.close());

  it('the running watcher credits a deposit at the confirmations set after it was seen', async () => {
    const watcher = live().watcher; // the server's own instance, running since start
    await call<DepositAddress>('POST', '/api/deposit/createAddress', {
      token: alice.token,
      body: { currencyId: nets.ETH!.currencyId, networkId: nets.ETH!.id },
    });
    const sent = await call<{ txHash: `0x${string}` }>('POST', '/api/deposit/faucet', {
      token: alice.token,
      body: { networkId: nets.ETH!.id },
    });
    await live().local!.client.waitForTransactionReceipt({ hash: sent.data.txHash });
    await watcher.tick();
    const deposit = async () =>
      (
        await call<PageResponse<DepositRecord>>('POST', '/api/deposit/getDepositList', {
          token: alice.token,
          body: { page: 1, pageSize: 5 },
        })
      ).data.list[0]!;
    expect(await deposit()).toMatchObject({ status: 'pending', confirmations: 1, confirmationsRequired: 3 });

    expect((await set('ETH', { confirmations: 5 })).code).toBe(0);
    expect((await publicNet('ETH')).confirmations).toBe(5);
    const configs = await call<{ networks: { id: number; confirmations: number }[] }>('GET', '/api/configs');
    expect(configs.data.networks.find((n) => n.id === nets.ETH!.id)!.confirmations).toBe(5);

    await live().local!.mine(2);
    await watcher.tick();
    expect(await deposit()).toMatchObject({ status: 'pending', confirmations: 3, confirmationsRequired: 5 });
    await live().local!.mine(2);
    await watcher.tick();
    expect(await deposit()).toMatchObject({ status: 'credited', confirmationsRequired: 5 });
    const balance = await call<Balance>('GET', `/api/currency/balance/${nets.ETH!.currencyId}`, { token: alice.token });
    expect(balance.data.available).toBe('1');
  });

  it('a raised minimum withdrawal is refused at once (3002), disabled withdrawals at once (3003)', async () => {
    await fund(t, alice.uid, 'ETH', '5');
    // Before: the amount passes every check the code does not guard (then the wrong code, 2004).
    expect((await withdraw('0.01')).code).toBe(2004);
    expect((await set('ETH', { minWithdraw: '0.05' })).code).toBe(0);
    expect((await publicNet('ETH')).minWithdraw).toBe('0.05');
    expect((await withdraw('0.01')).code).toBe(3002);
    expect((await withdraw('0.05')).code).toBe(2004);

    expect((await set('ETH', { withdrawEnabled: false })).code).toBe(0);
    expect((await publicNet('ETH')).withdrawEnabled).toBe(false);
    expect((await withdraw('0.05')).code).toBe(3003);
    expect((await set('ETH', { withdrawEnabled: true })).code).toBe(0);
    expect((await withdraw('0.05')).code).toBe(2004);
  });

  it('disabled deposits are no longer watched: the next tick leaves a new deposit unseen', async () => {
    expect((await set('ETH', { depositEnabled: false })).code).toBe(0);
    const [own] = await t.database.sql.query<{ address: `0x${string}` }>('select address from deposit_addresses where user_id = $1', [
      alice.uid,
    ]);
    const hash = await live().local!.faucet(own!.address, 'ETH', 10n ** 18n);
    await live().local!.client.waitForTransactionReceipt({ hash });
    await live().watcher.tick();
    const [row] = await t.database.sql.query<{ n: number }>('select count(*)::int as n from deposits where tx_hash = $1', [hash]);
    expect(row!.n).toBe(0);
    expect((await set('ETH', { depositEnabled: true })).code).toBe(0);
  });

  it('start-up keeps an operator’s token contract while it is a contract on the chain', async () => {
    const { tokens } = live().local!;
    const client_ = live().local!.client;
    // The USDT network pointed (by an operator) at a contract that exists: kept.
    await t.database.sql.query('update networks set contract = null where id = $1', [nets.USDC!.id]);
    await t.database.sql.query('update networks set contract = $2 where id = $1', [nets.USDT!.id, tokens.USDC]);
    expect(await syncLocalTokenContracts(t.database, client_, live().chainId, tokens)).toEqual([nets.USDC!.id]);
    // An address without code (a chain started afresh): replaced by the deployed token.
    await t.database.sql.query('update networks set contract = $2 where id = $1', [
      nets.USDT!.id,
      '0x00000000000000000000000000000000000000e0',
    ]);
    await t.database.sql.query('update networks set contract = null where id = $1', [nets.USDC!.id]);
    expect((await syncLocalTokenContracts(t.database, client_, live().chainId, tokens)).sort()).toEqual(
      [nets.USDT!.id, nets.USDC!.id].sort(),
    );
    expect((await publicNet('USDT')).contract).toBe(tokens.USDT);
    expect(await syncLocalTokenContracts(t.database, client_, live().chainId, tokens)).toEqual([]);
  });
});
