import type { Balance, DepositRecord, PageResponse } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp, testDbKind } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { DepositWatcher } from '../watcher.ts';
import { UtxoChainAdapter } from './adapter.ts';
import { utxoAccountXpub } from './address.ts';
import { UTXO_NETWORKS } from './params.ts';
import { type RegtestNode, regtestBinary, startRegtest } from './regtest.ts';

const bin = regtestBinary();
if (!bin && process.env.CI)
  throw new Error('litecoind is not on the PATH: install the Debian package "litecoind" (CI must run these tests)');
if (!bin) console.warn('utxo-watcher.test.ts is skipped: litecoind is not on the PATH (install the Debian package "litecoind")');

const params = UTXO_NETWORKS['litecoin-regtest'];
// A test seed: the account key derived from it is public data in these tests.
const SEED = new Uint8Array(64).map((_, i) => i + 1);

/** The whole deposit path of the UTXO family on a real litecoind regtest node (N = 2). */
describe.skipIf(!bin)(`UTXO deposits on a real regtest node (${testDbKind})`, () => {
  let node: RegtestNode;
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let adapter: UtxoChainAdapter;
  let ltc: { id: number; currency_id: number };

  const watcher = () => new DepositWatcher(t.database, adapter, params.chainId);
  const watch = () => watcher().tick();
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
  const deposits = async (u: TestUser) =>
    (await call<PageResponse<DepositRecord>>('POST', '/api/deposit/getDepositList', { token: u.token, body: { page: 1, pageSize: 50 } }))
      .data.list;
  const available = async (u: TestUser) =>
    (await call<Balance>('GET', `/api/currency/balance/${ltc.currency_id}`, { token: u.token })).data.available;
  const outputs = (txid: string) =>
    t.database.sql.query<{ vout: number; value: string; address: string; state: string; deposit_id: string; block_hash: string }>(
      'select vout, value::text, address, state, deposit_id::text, block_hash from utxo_outputs where txid = $1 order by vout',
      [txid],
    );
  const creditEntries = async (u: TestUser) =>
    (
      await t.database.sql.query<{ n: number }>(
        `select count(*)::int as n from journal_entries e join deposits d on d.entry_id = e.id where d.user_id = $1`,
        [u.uid],
      )
    )[0]!.n;

  beforeAll(async () => {
    node = await startRegtest();
    t = await createTestApp();
    call = client(t);
    adapter = new UtxoChainAdapter(node.rpc, params, utxoAccountXpub(SEED, params));
    // The seeded network starts disabled until a node serves it (migration 0048).
    [ltc] = (await t.database.sql.query<{ id: number; currency_id: number }>(
      `update networks set deposit_enabled = true where chain_id = $1 and family = 'utxo' returning id, currency_id`,
      [params.chainId],
    )) as [{ id: number; currency_id: number }];
    await watch();
  }, 120_000);
  afterAll(async () => {
    if (t) {
      const report = await auditLedger(t.database);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      await t.close();
    }
    await node?.stop();
  });

  it('a deposit shows pending 1/2, is credited once at 2 confirmations, and its output becomes available', async () => {
    const alice = await createUser(t);
    const address = await addressOf(alice);
    expect(address).toMatch(/^rltc1q/);
    const started = performance.now();
    const txid = await node.send(address, '0.5');
    await node.mine(1);
    expect((await watch()).found).toBe(1);
    expect(await deposits(alice)).toMatchObject([
      { txHash: txid, amount: '0.5', status: 'pending', confirmations: 1, confirmationsRequired: 2, fromAddress: '', address },
    ]);
    expect(await available(alice)).toBe('0');
    expect(await outputs(txid)).toEqual([]);

    await node.mine(1);
    expect((await watch()).credited).toBe(1);
    console.log(`utxo deposit: send to credit at N=2 in ${Math.round(performance.now() - started)} ms (${testDbKind})`);
    const [dep] = await deposits(alice);
    expect(dep).toMatchObject({ status: 'credited', amount: '0.5' });
    expect(await available(alice)).toBe('0.5');
    expect(await outputs(txid)).toEqual([
      { vout: dep!.logIndex, value: '50000000', address, state: 'available', deposit_id: String(dep!.id), block_hash: expect.any(String) },
    ]);

    await node.mine(2);
    await watch();
    await watch();
    expect(await available(alice)).toBe('0.5');
    expect(await creditEntries(alice)).toBe(1);
  });

  it('invalidateblock before 2 confirmations drops the deposit; mined again, it is credited once', async () => {
    const bob = await createUser(t);
    const address = await addressOf(bob);
    const txid = await node.send(address, '0.25');
    const [block] = await node.mine(1);
    await watch();
    expect(await deposits(bob)).toMatchObject([{ txHash: txid, status: 'pending', confirmations: 1 }]);

    await node.rpc.call('invalidateblock', [block]);
    expect((await watch()).rewoundTo).not.toBeNull();
    expect(await deposits(bob)).toMatchObject([{ txHash: txid, status: 'dropped' }]);
    expect(await available(bob)).toBe('0');

    // The transaction went back to the mempool; a new block (another coinbase address, so
    // another hash) mines it again: the same deposit row comes back pending, then credited.
    const other = String(await node.rpc.wallet('faucet').call('getnewaddress', ['', 'bech32']));
    const [again] = await node.mine(1, other);
    expect(again).not.toBe(block);
    await watch();
    expect(await deposits(bob)).toMatchObject([{ txHash: txid, status: 'pending', confirmations: 1 }]);
    await node.mine(1);
    await watch();
    await watch();
    const rows = await deposits(bob);
    expect(rows).toMatchObject([{ txHash: txid, status: 'credited', amount: '0.25' }]);
    expect(await available(bob)).toBe('0.25');
    expect(await creditEntries(bob)).toBe(1);
    expect(await outputs(txid)).toMatchObject([{ value: '25000000', state: 'available', block_hash: again }]);
  });

  it('reconsiderblock brings an invalidated deposit back to the same row, credited once', async () => {
    const carol = await createUser(t);
    const address = await addressOf(carol);
    const txid = await node.send(address, '0.125');
    const [block] = await node.mine(1);
    await watch();
    await node.rpc.call('invalidateblock', [block]);
    await watch();
    expect(await deposits(carol)).toMatchObject([{ status: 'dropped' }]);
    await node.rpc.call('reconsiderblock', [block]);
    await watch();
    expect(await deposits(carol)).toMatchObject([{ txHash: txid, status: 'pending' }]);
    await node.mine(1);
    await watch();
    expect(await deposits(carol)).toMatchObject([{ txHash: txid, status: 'credited' }]);
    expect(await available(carol)).toBe('0.125');
    expect(await outputs(txid)).toMatchObject([{ value: '12500000', block_hash: block }]);
  });

  it('a credited deposit reorged out loses its available output (and opens the incident)', async () => {
    const erin = await createUser(t);
    const address = await addressOf(erin);
    const txid = await node.send(address, '0.0625');
    const [block] = await node.mine(2);
    await watch();
    expect(await outputs(txid)).toHaveLength(1);
    await node.rpc.call('invalidateblock', [block]);
    await watch();
    expect(await deposits(erin)).toMatchObject([{ status: 'reorged_after_credit' }]);
    expect(await outputs(txid)).toEqual([]);
    const incidents = await t.database.sql.query<{ id: number }>(
      `update chain_incidents set resolved_at = now() where kind = 'reorged_after_credit' and resolved_at is null returning id`,
    );
    expect(incidents).toHaveLength(1);
    await node.rpc.call('reconsiderblock', [block]);
    await watch();
  });

  it('a new watcher (as after kill -9) between the confirmations credits once', async () => {
    const dave = await createUser(t);
    const address = await addressOf(dave);
    const txid = await node.send(address, '1.5');
    await node.mine(1);
    const first = watcher();
    await first.tick();
    expect(await deposits(dave)).toMatchObject([{ status: 'pending', confirmations: 1 }]);
    await node.mine(1);
    expect((await watcher().tick()).credited).toBe(1);
    expect((await first.tick()).credited).toBe(0);
    expect(await available(dave)).toBe('1.5');
    expect(await creditEntries(dave)).toBe(1);
    expect(await outputs(txid)).toHaveLength(1);
  });

  it('two outputs to two users in one transaction are two deposits, each with its output', async () => {
    const [u1, u2] = [await createUser(t), await createUser(t)];
    const [a1, a2] = [await addressOf(u1), await addressOf(u2)];
    const txid = await node.sendMany({ [a1]: '0.3', [a2]: '0.00123456' });
    await node.mine(2);
    const result = await watch();
    expect(result).toMatchObject({ found: 2, credited: 2 });
    const [d1] = await deposits(u1);
    const [d2] = await deposits(u2);
    expect(d1).toMatchObject({ txHash: txid, amount: '0.3', status: 'credited' });
    expect(d2).toMatchObject({ txHash: txid, amount: '0.00123456', status: 'credited' });
    expect(d1!.logIndex).not.toBe(d2!.logIndex);
    expect(await available(u1)).toBe('0.3');
    expect(await available(u2)).toBe('0.00123456');
    const rows = await outputs(txid);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.address === a1)).toMatchObject({ vout: d1!.logIndex, value: '30000000', deposit_id: String(d1!.id) });
    expect(rows.find((r) => r.address === a2)).toMatchObject({ vout: d2!.logIndex, value: '123456', deposit_id: String(d2!.id) });
  });
});
