import type { Balance, DepositAddress, DepositRecord, Network, PageResponse } from '@coffer/contract';
import { parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmAddress } from '../../chain/evm.ts';
import { DepositWatcher } from '../../chain/watcher.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';

/** Deposits on a real anvil (a block per transaction): seen, confirmed, credited once, reorgs. */
describe('deposits on a real chain', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let nets: Record<string, Network>;

  const live = () => t.chain.live!;
  const local = () => live().local!;
  /** A new watcher each time: a restart between every step must change nothing. */
  const watch = () => new DepositWatcher(t.database, live().adapter, live().chainId).tick();
  /**
   * Waits for a faucet transaction's receipt: on a loaded machine anvil's automine answered the
   * send first and the deposit's block came after the watcher's look (the watcher tests' fix).
   */
  const mined = async (sent: Promise<`0x${string}`>) => local().client.waitForTransactionReceipt({ hash: await sent });
  const addressOf = async (u: TestUser, code: string) =>
    (
      await call<DepositAddress>('POST', '/api/deposit/createAddress', {
        token: u.token,
        body: { currencyId: nets[code]!.currencyId, networkId: nets[code]!.id },
      })
    ).data.address as EvmAddress;
  const deposits = async (u: TestUser) =>
    (await call<PageResponse<DepositRecord>>('POST', '/api/deposit/getDepositList', { token: u.token, body: { page: 1, pageSize: 50 } }))
      .data.list;
  const available = async (u: TestUser, code: string) =>
    (await call<Balance>('GET', `/api/currency/balance/${nets[code]!.currencyId}`, { token: u.token })).data.available;

  beforeAll(async () => {
    t = await createTestApp({}, { chain: true });
    call = client(t);
    alice = await createUser(t);
    bob = await createUser(t);
    const list = (await call<Network[]>('GET', '/api/currency/onchain')).data;
    nets = Object.fromEntries(list.map((n) => [n.code, n]));
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  it('lists ETH, USDT and USDC on the local chain with their token contracts (public)', async () => {
    expect(Object.keys(nets).sort()).toEqual(['ETH', 'USDC', 'USDT']);
    expect(nets.ETH).toMatchObject({ chainId: 31337, contract: null, tokenDecimals: 18, confirmations: 3, payoutsFrozen: false });
    expect(nets.USDT!.contract).toBe(local().tokens.USDT);
    const configs = await call<{ faucet: boolean; networks: unknown[] }>('GET', '/api/configs');
    expect(configs.data).toMatchObject({ productName: 'Coffer', faucet: true });
    expect(configs.data.networks).toHaveLength(3);
  });

  it('allocates one address per user and chain, the same every time', async () => {
    const a1 = await addressOf(alice, 'ETH');
    expect(await addressOf(alice, 'ETH')).toBe(a1);
    expect(await addressOf(alice, 'USDT')).toBe(a1);
    expect(await addressOf(bob, 'ETH')).not.toBe(a1);
    expect(a1).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const list = await call<DepositAddress[]>('GET', '/api/deposit/getAddressList', { token: alice.token });
    expect(list.data.map((a) => a.code)).toEqual(['ETH', 'USDT', 'USDC']);
    expect(new Set(list.data.map((a) => a.address))).toEqual(new Set([a1]));
  });

  it('refuses a network of another currency, an unknown network and a signed-out caller', async () => {
    const wrong = await call('POST', '/api/deposit/createAddress', {
      token: alice.token,
      body: { currencyId: nets.ETH!.currencyId, networkId: nets.USDT!.id },
    });
    expect(wrong.code).toBe(3003);
    const unknown = await call('POST', '/api/deposit/createAddress', {
      token: alice.token,
      body: { currencyId: nets.ETH!.currencyId, networkId: 99999 },
    });
    expect(unknown.code).toBe(3003);
    const bad = await call('POST', '/api/deposit/createAddress', {
      token: alice.token,
      body: { currencyId: 'x', networkId: nets.ETH!.id },
    });
    expect(bad.code).toBe(1001);
    const anon = await call('POST', '/api/deposit/createAddress', { body: { currencyId: nets.ETH!.currencyId, networkId: nets.ETH!.id } });
    expect(anon.code).toBe(2001);
  });

  it('shows an ETH deposit at once as pending n/N and credits it exactly once at N, across restarts', async () => {
    await watch(); // cursor at the tip before the deposit
    const address = await addressOf(alice, 'ETH');
    const faucet = await call<{ txHash: string; amount: string }>('POST', '/api/deposit/faucet', {
      token: alice.token,
      body: { networkId: nets.ETH!.id },
    });
    expect(faucet).toMatchObject({ code: 0, data: { amount: '1', address } });
    await watch();
    let [dep] = await deposits(alice);
    expect(dep).toMatchObject({
      status: 'pending',
      amount: '1',
      txHash: faucet.data.txHash,
      confirmations: 1,
      confirmationsRequired: 3,
      logIndex: -1,
    });
    expect(await available(alice, 'ETH')).toBe('0');

    await local().mine(1);
    await watch();
    [dep] = await deposits(alice);
    expect(dep).toMatchObject({ status: 'pending', confirmations: 2 });
    expect(await available(alice, 'ETH')).toBe('0');

    await local().mine(1);
    await watch();
    await watch();
    [dep] = await deposits(alice);
    expect(dep).toMatchObject({ status: 'credited', confirmations: 3 });
    expect(dep!.creditedAt).not.toBeNull();
    expect(await available(alice, 'ETH')).toBe('1');

    // Rescanning the same blocks from an old cursor (a crash before the cursor moved) credits nothing twice.
    await t.database.sql.query(
      'update chain_cursors set block_number = block_number - 3, block_hash = (select block_hash from chain_blocks b where b.chain_id = chain_cursors.chain_id and b.block_number = chain_cursors.block_number - 3)',
    );
    await watch();
    await watch();
    expect(await available(alice, 'ETH')).toBe('1');
    expect(await deposits(alice)).toHaveLength(1);
    const info = await call<DepositRecord>('GET', `/api/deposit/getDepositInfo/${dep!.id}`, { token: alice.token });
    expect(info.data).toMatchObject({ id: dep!.id, status: 'credited', address });
    const other = await call('GET', `/api/deposit/getDepositInfo/${dep!.id}`, { token: bob.token });
    expect(other.code).toBe(4004);
  });

  it('credits a USDT deposit (token logs) at N', async () => {
    const address = await addressOf(bob, 'USDT');
    await mined(local().faucet(address, 'USDT', parseUnits('250.5', 6)));
    await watch();
    const [dep] = await deposits(bob);
    expect(dep).toMatchObject({ code: 'USDT', status: 'pending', amount: '250.5', confirmations: 1 });
    expect(dep!.logIndex).toBeGreaterThanOrEqual(0);
    await local().mine(2);
    await watch();
    expect(await available(bob, 'USDT')).toBe('250.5');
    const filtered = await call<PageResponse<DepositRecord>>('POST', '/api/deposit/getDepositList', {
      token: bob.token,
      body: { page: 1, pageSize: 10, status: 'pending' },
    });
    expect(filtered.data.total).toBe(0);
  });

  it('records a deposit below the minimum without crediting it', async () => {
    const address = await addressOf(bob, 'ETH');
    await mined(local().faucet(address, 'ETH', parseEther('0.0001')));
    await local().mine(3);
    await watch();
    const [dep] = await deposits(bob);
    expect(dep).toMatchObject({ code: 'ETH', status: 'below_minimum', amount: '0.0001' });
    expect(await available(bob, 'ETH')).toBe('0');
  });

  it('drops a pending deposit that a reorg removes before N', async () => {
    const address = await addressOf(alice, 'USDC');
    await mined(local().faucet(address, 'USDC', parseUnits('40', 6)));
    await watch();
    expect((await deposits(alice))[0]).toMatchObject({ code: 'USDC', status: 'pending' });
    await local().client.request({ method: 'anvil_reorg', params: [1, []] } as never);
    const result = await watch();
    expect(result.rewoundTo).not.toBeNull();
    await local().mine(3);
    await watch();
    expect((await deposits(alice))[0]).toMatchObject({ code: 'USDC', status: 'dropped', confirmations: 0 });
    expect(await available(alice, 'USDC')).toBe('0');
  });

  it('a reorg deeper than N after a credit opens an incident and freezes payouts on the whole chain', async () => {
    const address = await addressOf(bob, 'USDC');
    await mined(local().faucet(address, 'USDC', parseUnits('10', 6)));
    await local().mine(2);
    await watch();
    expect((await deposits(bob))[0]).toMatchObject({ code: 'USDC', status: 'credited' });
    await local().client.request({ method: 'anvil_reorg', params: [4, []] } as never);
    await watch();
    expect((await deposits(bob))[0]).toMatchObject({ code: 'USDC', status: 'reorged_after_credit' });
    const incidents = await t.database.sql.query<{ kind: string; network_id: number }>(
      'select kind, network_id from chain_incidents where resolved_at is null',
    );
    expect(incidents).toEqual([{ kind: 'reorged_after_credit', network_id: nets.USDC!.id }]);
    const list = (await call<Network[]>('GET', '/api/currency/onchain')).data;
    // Every network of the chain: the unbacked USDC could be swapped to ETH and paid out there.
    expect(list.map((n) => n.payoutsFrozen)).toEqual([true, true, true]);
    // The credit stays (an operator decides); the ledger is still balanced.
    expect(await available(bob, 'USDC')).toBe('10');
  });

  it('operators see the incident and lift the freeze by resolving it; users may not', async () => {
    const ops = await createUser(t, { role: 'operator' });
    const open = await call<{ id: number; kind: string }[]>('GET', '/api/admin/chain/incidents?open=true', { token: ops.token });
    expect(open.data).toMatchObject([{ kind: 'reorged_after_credit' }]);
    const id = open.data[0]!.id;
    expect((await call('GET', '/api/admin/chain/incidents', { token: bob.token })).status).toBe(403);
    expect((await call('POST', `/api/admin/chain/incidents/${id}/resolve`, { token: bob.token, body: { resolution: 'x' } })).status).toBe(
      403,
    );
    const resolved = await call<{ resolvedAt: string | null }>('POST', `/api/admin/chain/incidents/${id}/resolve`, {
      token: ops.token,
      body: { resolution: 'deposit re-sent by the customer; credit kept' },
    });
    expect(resolved.data.resolvedAt).not.toBeNull();
    expect((await call('POST', `/api/admin/chain/incidents/${id}/resolve`, { token: ops.token, body: { resolution: 'again' } })).code).toBe(
      3007,
    );
    expect((await call('POST', '/api/admin/chain/incidents/999999/resolve', { token: ops.token, body: { resolution: 'x' } })).code).toBe(
      4004,
    );
    const list = (await call<Network[]>('GET', '/api/currency/onchain')).data;
    expect(list.map((n) => n.payoutsFrozen)).toEqual([false, false, false]);
    const pending = await call<unknown[]>('GET', '/api/admin/withdraw/open', { token: ops.token });
    expect(pending.code).toBe(0);
  });
});
