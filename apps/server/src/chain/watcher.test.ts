import type { Balance, DepositAddress, DepositRecord, Network, PageResponse } from '@coffer/contract';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../ledger/audit.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { client, createUser, type TestUser } from '../test/users.ts';
import type { ChainAdapter } from './adapter.ts';
import type { EvmAddress } from './evm.ts';
import { DepositWatcher } from './watcher.ts';

/** Reorgs that land between the watcher's steps, on a real anvil. */
describe('deposit watcher against reorgs inside a tick', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let nets: Record<string, Network>;

  const live = () => t.chain.live!;
  const local = () => live().local!;
  const rpc = (method: string, params: unknown[]) => local().client.request({ method, params } as never) as Promise<unknown>;
  const watch = (adapter: ChainAdapter = live().adapter) => new DepositWatcher(t.database, adapter, live().chainId).tick();
  const addressOf = async (u: TestUser, code: string) =>
    (await call<DepositAddress>('POST', '/api/deposit/createAddress', { token: u.token, body: { currencyId: nets[code]!.currencyId, networkId: nets[code]!.id } })).data
      .address as EvmAddress;
  const deposits = async (u: TestUser) =>
    (await call<PageResponse<DepositRecord>>('POST', '/api/deposit/getDepositList', { token: u.token, body: { page: 1, pageSize: 50 } })).data.list;
  const available = async (u: TestUser, code: string) =>
    (await call<Balance>('GET', `/api/currency/balance/${nets[code]!.currencyId}`, { token: u.token })).data.available;

  beforeAll(async () => {
    t = await createTestApp({}, { chain: true });
    call = client(t);
    alice = await createUser(t);
    const list = (await call<Network[]>('GET', '/api/currency/onchain')).data;
    nets = Object.fromEntries(list.map((n) => [n.code, n]));
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t?.close();
  });

  it('a reorg right after the cursor check does not leave a removed deposit to be credited', async () => {
    await watch();
    const address = await addressOf(alice, 'ETH');
    await local().faucet(address, 'ETH', parseEther('2'));
    await watch();
    expect((await deposits(alice))[0]).toMatchObject({ status: 'pending', amount: '2' });
    await local().mine(1);

    // The cursor block still matches when it is checked; right after that, a reorg replaces
    // the deposit's block and the one above it (the deposit is gone from the chain).
    const real = live().adapter;
    let reorged = false;
    const racing: ChainAdapter = {
      family: real.family,
      chainId: () => real.chainId(),
      head: () => real.head(),
      blockHeader: async (n) => {
        const header = await real.blockHeader(n);
        if (!reorged) {
          reorged = true;
          await rpc('anvil_reorg', [2, []]);
        }
        return header;
      },
      scanDeposits: (...args) => real.scanDeposits(...args),
      deriveDepositAddress: (i) => real.deriveDepositAddress(i),
      normalizeAddress: (s) => real.normalizeAddress(s),
    };
    await watch(racing);
    expect(reorged).toBe(true);

    await local().mine(3);
    await watch();
    await watch();
    const [dep] = await deposits(alice);
    expect(dep).toMatchObject({ amount: '2', status: 'dropped' });
    expect(await available(alice, 'ETH')).toBe('0');
  });
});
