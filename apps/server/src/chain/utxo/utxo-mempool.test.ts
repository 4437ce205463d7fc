import type { Balance, DepositRecord, PageResponse } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp, testDbKind } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { DepositWatcher } from '../watcher.ts';
import { UtxoChainAdapter } from './adapter.ts';
import { utxoAccountXpub } from './address.ts';
import { UtxoMempoolWatcher } from './mempool.ts';
import { UTXO_NETWORKS } from './params.ts';
import { type RegtestNode, regtestBinary, startRegtest } from './regtest.ts';
import { fromBaseUnits, type RpcValue, toBaseUnits } from './rpc.ts';

const bin = regtestBinary();
if (!bin && process.env.CI)
  throw new Error('litecoind is not on the PATH: install the Debian package "litecoind" (CI must run these tests)');
if (!bin) console.warn('utxo-mempool.test.ts is skipped: litecoind is not on the PATH (install the Debian package "litecoind")');

const params = UTXO_NETWORKS['litecoin-regtest'];
// A test seed: the account key derived from it is public data in these tests.
const SEED = new Uint8Array(64).map((_, i) => i + 3);
/** The fee of the double spend, in litoshis. */
const DOUBLE_SPEND_FEE = 100_000n;

/** Unconfirmed deposits from the mempool of a real litecoind regtest node (N = 2), through the API. */
describe.skipIf(!bin)(`UTXO mempool deposits on a real regtest node (${testDbKind})`, () => {
  let node: RegtestNode;
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let adapter: UtxoChainAdapter;
  let mempool: UtxoMempoolWatcher;
  let ltc: { id: number; currency_id: number };

  const watch = () => new DepositWatcher(t.database, adapter, params.chainId).tick();
  const faucet = () => node.rpc.wallet('faucet');
  const addressOf = async (u: TestUser) => {
    const [{ i }] = (await t.database.sql.query<{ i: number }>("select nextval('deposit_address_index_seq')::int as i")) as [{ i: number }];
    const address = adapter.deriveDepositAddress(i);
    await t.database.sql.query('insert into deposit_addresses (user_id, chain_id, address_index, address) values ($1, $2, $3, $4)', [
      u.uid,
      params.chainId,
      i,
      address,
    ]);
    return address;
  };
  const list = async (u: TestUser, filter: object = {}) =>
    (
      await call<PageResponse<DepositRecord>>('POST', '/api/deposit/getDepositList', {
        token: u.token,
        body: { page: 1, pageSize: 50, ...filter },
      })
    ).data.list;
  const available = async (u: TestUser) =>
    (await call<Balance>('GET', `/api/currency/balance/${ltc.currency_id}`, { token: u.token })).data.available;
  const entries = async (u: TestUser) =>
    (await t.database.sql.query<{ n: number }>('select count(*)::int as n from journal_entries where user_id = $1', [u.uid]))[0]!.n;
  const events = async (u: TestUser) =>
    (
      await t.database.sql.query<{ status: string }>(`select status from user_events where user_id = $1 and type = 'deposit' order by id`, [
        u.uid,
      ])
    ).map((e) => e.status);

  /**
   * Spends the inputs of `txid` again, all to a faucet address, and mines that conflicting
   * transaction alone in a block (generateblock): the node drops `txid` from its mempool. A
   * BIP-125 replacement in the mempool is what a Bitcoin Core node would take; litecoind 0.21
   * refuses one (sendrawtransaction answers txn-mempool-conflict even when the original signals
   * and bumpfee's transaction does not enter the mempool), so the double spend is mined.
   */
  const doubleSpend = async (txid: string) => {
    const tx = (await node.rpc.call('getrawtransaction', [txid, true])) as { vin: Array<{ txid: string; vout: string }> };
    const inputs = tx.vin.map((i) => ({ txid: i.txid, vout: Number(i.vout) }));
    // The inputs' values from the confirmed set (the mempool's view has them spent by txid).
    const prevouts = (await node.rpc.batch(inputs.map((i) => ({ method: 'gettxout', params: [i.txid, i.vout, false] })))) as Array<{
      value: RpcValue;
    }>;
    const total = prevouts.reduce((sum, p) => sum + toBaseUnits(p.value), 0n);
    const to = String(await faucet().call('getnewaddress', ['', 'bech32']));
    const raw = await node.rpc.call('createrawtransaction', [inputs, { [to]: fromBaseUnits(total - DOUBLE_SPEND_FEE) }]);
    const signed = (await faucet().call('signrawtransactionwithwallet', [raw])) as { hex: string; complete: boolean };
    expect(signed.complete).toBe(true);
    await node.rpc.call('generateblock', [node.faucetAddress, [signed.hex]]);
  };

  beforeAll(async () => {
    node = await startRegtest();
    t = await createTestApp();
    call = client(t);
    adapter = new UtxoChainAdapter(node.rpc, params, utxoAccountXpub(SEED, params));
    mempool = new UtxoMempoolWatcher(t.database, node.rpc, adapter, params.chainId);
    [ltc] = (await t.database.sql.query<{ id: number; currency_id: number }>(
      `update networks set deposit_enabled = true where chain_id = $1 and family = 'utxo' returning id, currency_id`,
      [params.chainId],
    )) as [{ id: number; currency_id: number }];
    await watch();
  }, 120_000);
  afterAll(async () => {
    try {
      if (t) {
        const report = await auditLedger(t.database);
        expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      }
    } finally {
      // the server and the node stop even when the audit fails
      await t?.close();
      await node?.stop();
    }
  });

  it('a payment in the mempool is shown unconfirmed 0/2 without touching the balance; mined, the same deposit goes n/2 and is credited once', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const address = await addressOf(alice);
    const txid = await node.send(address, '0.75');
    const started = performance.now();
    expect(await mempool.tick()).toMatchObject({ seen: 1, gone: 0 });
    console.log(`mempool deposit: sent to shown unconfirmed in ${Math.round(performance.now() - started)} ms (${testDbKind})`);
    const [seen] = await list(alice);
    expect(seen).toMatchObject({
      txHash: txid,
      amount: '0.75',
      status: 'unconfirmed',
      confirmations: 0,
      confirmationsRequired: 2,
      blockNumber: 0,
      address,
      creditedAt: null,
    });
    expect(await available(alice)).toBe('0');
    expect(await entries(alice)).toBe(0);
    // The deposits on their way (the /charge list) include it; the pending filter alone does not.
    expect(await list(alice, { statuses: ['unconfirmed', 'pending'] })).toMatchObject([{ id: seen!.id }]);
    expect(await list(alice, { status: 'pending' })).toEqual([]);
    // Ticks again: nothing new, nothing credited, the block watcher leaves it alone.
    expect(await mempool.tick()).toMatchObject({ read: 0, seen: 0, gone: 0 });
    expect(await watch()).toMatchObject({ found: 0, credited: 0 });
    expect(await list(alice)).toMatchObject([{ id: seen!.id, status: 'unconfirmed' }]);
    // Another user's id answers like a missing one.
    expect((await call('GET', `/api/deposit/getDepositInfo/${seen!.id}`, { token: bob.token })).code).toBe(4004);
    expect((await call('GET', `/api/deposit/getDepositInfo/${seen!.id}`, { token: alice.token })).data).toMatchObject({
      status: 'unconfirmed',
    });

    // Mined: the mempool tick before the block watcher's keeps the row (its output is on chain).
    await node.mine(1);
    expect(await mempool.tick()).toMatchObject({ gone: 0 });
    expect(await watch()).toMatchObject({ found: 1, credited: 0 });
    expect(await list(alice)).toMatchObject([{ id: seen!.id, status: 'pending', confirmations: 1, blockNumber: expect.any(Number) }]);
    expect(await available(alice)).toBe('0');

    await node.mine(1);
    expect(await watch()).toMatchObject({ credited: 1 });
    await mempool.tick();
    await watch();
    expect(await list(alice)).toMatchObject([{ id: seen!.id, status: 'credited', confirmations: 2 }]);
    expect(await available(alice)).toBe('0.75');
    expect(await entries(alice)).toBe(1);
    const seenEvents = await events(alice);
    expect([seenEvents[0], seenEvents.at(-1)]).toEqual(['unconfirmed', 'credited']);
  });

  it('a payment double-spent before it is mined disappears from the list and is never credited', async () => {
    const carol = await createUser(t);
    const address = await addressOf(carol);
    const txid = await node.send(address, '0.4');
    expect(await mempool.tick()).toMatchObject({ seen: 1 });
    const [seen] = await list(carol);
    expect(seen).toMatchObject({ txHash: txid, status: 'unconfirmed', amount: '0.4' });

    await doubleSpend(txid);
    expect(await node.rpc.call('getrawmempool')).not.toContain(txid);
    expect(await mempool.tick()).toMatchObject({ seen: 0, gone: 1 });
    expect(await list(carol)).toEqual([]);
    expect((await call('GET', `/api/deposit/getDepositInfo/${seen!.id}`, { token: carol.token })).code).toBe(4004);

    await node.mine(2);
    expect(await watch()).toMatchObject({ found: 0, credited: 0 });
    await mempool.tick();
    expect(await list(carol)).toEqual([]);
    expect(await available(carol)).toBe('0');
    expect(await entries(carol)).toBe(0);
    expect(await events(carol)).toEqual(['unconfirmed', 'removed']);
  });

  it('a deposit a reorg sends back to the mempool shows unconfirmed again, and is credited once when mined again', async () => {
    const dave = await createUser(t);
    const address = await addressOf(dave);
    const txid = await node.send(address, '0.2');
    const [block] = await node.mine(1);
    await watch();
    await mempool.tick();
    expect(await list(dave)).toMatchObject([{ txHash: txid, status: 'pending', confirmations: 1 }]);
    await node.rpc.call('invalidateblock', [block]);
    await watch();
    expect(await list(dave)).toMatchObject([{ status: 'dropped' }]);
    expect(await mempool.tick()).toMatchObject({ seen: 1 });
    const [back] = await list(dave);
    expect(back).toMatchObject({ txHash: txid, status: 'unconfirmed', confirmations: 0, blockNumber: 0 });
    await node.rpc.call('reconsiderblock', [block]);
    await node.mine(1);
    await mempool.tick();
    await watch();
    expect(await list(dave)).toMatchObject([{ id: back!.id, status: 'credited' }]);
    expect(await available(dave)).toBe('0.2');
    expect(await entries(dave)).toBe(1);
  });

  it('refuses a bad statuses filter', async () => {
    const erin = await createUser(t);
    for (const statuses of [[], ['mempool'], 'unconfirmed']) {
      const res = await call('POST', '/api/deposit/getDepositList', { token: erin.token, body: { page: 1, pageSize: 10, statuses } });
      expect(res.code).toBe(1001);
    }
  });
});
