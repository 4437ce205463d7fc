import type { Balance, DepositAddress, DepositRecord, FaucetData, PageResponse } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDbKind } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { loadConfig } from '../../config.ts';
import { EventHub } from '../../core/event-hub.ts';
import { silentLog } from '../../core/log.ts';
import { deriveBip84Address, utxoAccountXpub } from './address.ts';
import { UTXO_NETWORKS } from './params.ts';
import { regtestBinary } from './regtest.ts';
import { startUtxoChain, type UtxoLive } from './runtime.ts';

const bin = regtestBinary();
if (!bin && process.env.CI)
  throw new Error('litecoind is not on the PATH: install the Debian package "litecoind" (CI must run these tests)');
if (!bin) console.warn('utxo-runtime.test.ts is skipped: litecoind is not on the PATH (install the Debian package "litecoind")');

const params = UTXO_NETWORKS['litecoin-regtest'];

/** The embedded regtest node run by the server: addresses, faucet, watcher, through the API. */
describe.skipIf(!bin)(`the embedded Litecoin regtest node (${testDbKind})`, () => {
  let t: TestApp;
  let bare: TestApp;
  let utxo: UtxoLive;
  let ltc: { id: number; currency_id: number };
  let alice: TestUser;

  const createAddress = (app: TestApp, u: TestUser, lang?: string) =>
    client(app)<DepositAddress>('POST', '/api/deposit/createAddress', {
      token: u.token,
      lang,
      body: { currencyId: ltc.currency_id, networkId: ltc.id },
    });
  const deposits = async (u: TestUser) =>
    (
      await client(t)<PageResponse<DepositRecord>>('POST', '/api/deposit/getDepositList', {
        token: u.token,
        body: { page: 1, pageSize: 50 },
      })
    ).data.list;
  const available = async (u: TestUser) =>
    (await client(t)<Balance>('GET', `/api/currency/balance/${ltc.currency_id}`, { token: u.token })).data.available;

  beforeAll(async () => {
    const started = performance.now();
    t = await createTestApp({ LOCAL_UTXO: 'on' }, { chain: true });
    console.log(`embedded anvil + litecoind regtest ready in ${Math.round(performance.now() - started)} ms (${testDbKind})`);
    utxo = t.chain.utxo!;
    // the same database without any UTXO node: the network is not served there
    bare = await createTestApp({}, { database: t.database });
    [ltc] = (await t.database.sql.query<{ id: number; currency_id: number }>(
      `select id, currency_id from networks where chain_id = $1 and family = 'utxo'`,
      [params.chainId],
    )) as [{ id: number; currency_id: number }];
  }, 120_000);
  afterAll(async () => {
    await bare?.close();
    await t?.close();
  });

  it('serves the LTC network: its deposits open, its chain is listed', async () => {
    expect(utxo.chainId).toBe(params.chainId);
    expect(t.chain.chainIds).toContain(params.chainId);
    const [row] = await t.database.sql.query<{ deposit_enabled: boolean; withdraw_enabled: boolean }>(
      'select deposit_enabled, withdraw_enabled from networks where id = $1',
      [ltc.id],
    );
    // withdrawals open with the payouts (the signer serves the local chain)
    expect(row).toEqual({ deposit_enabled: true, withdraw_enabled: true });
  });

  it('hands each user their own BIP-84 address; the faucet pays it; pending n/N, then credited once', async () => {
    alice = await createUser(t);
    const bob = await createUser(t);
    const first = await createAddress(t, alice);
    expect(first.code).toBe(0);
    expect(first.data.address).toMatch(/^rltc1q[02-9ac-hj-np-z]{38}$/);
    expect((await createAddress(t, alice)).data.address).toBe(first.data.address);
    const other = (await createAddress(t, bob)).data.address;
    expect(other).toMatch(/^rltc1q/);
    expect(other).not.toBe(first.data.address);
    const [stored] = await t.database.sql.query<{ address_index: number }>(
      'select address_index from deposit_addresses where user_id = $1 and chain_id = $2',
      [alice.uid, params.chainId],
    );
    expect(utxo.adapter.deriveDepositAddress(stored!.address_index)).toBe(first.data.address);

    const sent = await client(t)<FaucetData>('POST', '/api/deposit/faucet', { token: alice.token, body: { networkId: ltc.id } });
    expect(sent.data).toMatchObject({ amount: '1', address: first.data.address });
    const required = first.data.confirmations;
    await utxo.local!.mine(1);
    await utxo.tick();
    expect(await deposits(alice)).toMatchObject([
      { txHash: sent.data.txHash, amount: '1', status: 'pending', confirmations: 1, confirmationsRequired: required },
    ]);
    expect(await available(alice)).toBe('0');

    await utxo.local!.mine(required - 1);
    await utxo.tick();
    await utxo.local!.mine(1);
    await utxo.tick();
    expect(await deposits(alice)).toMatchObject([{ txHash: sent.data.txHash, status: 'credited', amount: '1' }]);
    expect(await available(alice)).toBe('1');
    expect(await deposits(bob)).toEqual([]);
    expect(await available(bob)).toBe('0');
  });

  it('without a UTXO node the LTC address is refused with 3063, in both languages', async () => {
    const carol = await createUser(bare);
    const en = await createAddress(bare, carol, 'en-US');
    expect(en).toMatchObject({ code: 3063, message: expect.stringMatching(/not configured on this server/) });
    const zh = await createAddress(bare, carol, 'zh-CN');
    expect(zh).toMatchObject({ code: 3063, message: expect.stringMatching(/尚未配置该网络/) });
    expect(bare.chain.chainIds).not.toContain(params.chainId);
    // an address handed out while a node served the chain is not listed where none does
    const listed = async (app: TestApp) =>
      (await client(app)<DepositAddress[]>('GET', '/api/deposit/getAddressList', { token: alice.token })).data.map((a) => a.networkId);
    expect(await listed(t)).toContain(ltc.id);
    expect(await listed(bare)).not.toContain(ltc.id);
  });

  it('UTXO_RPC_URL: watches the configured node with UTXO_ACCOUNT_XPUB, and refuses a node of another network', async () => {
    const seed = new Uint8Array(64).map((_, i) => 64 - i);
    const { url, auth } = utxo.local!;
    const nodeUrl = `http://${auth.user}:${auth.password}@${new URL(url).host}`;
    const start = (network: 'litecoin' | 'litecoin-regtest') => {
      const env = { UTXO_RPC_URL: nodeUrl, UTXO_NETWORK: network, UTXO_ACCOUNT_XPUB: utxoAccountXpub(seed, UTXO_NETWORKS[network]) };
      const events = new EventHub(t.database);
      const running = startUtxoChain({
        config: loadConfig({ ...env, DATA_DIR: t.config.dataDir }),
        database: t.database,
        log: silentLog,
        events,
        embedded: false,
        localAccountXpub: () => {
          throw new Error('not embedded');
        },
        loop: false,
      });
      return running.finally(() => events.stop());
    };
    await expect(start('litecoin')).rejects.toThrow(/runs the "regtest" chain, not Litecoin \(UTXO_NETWORK=litecoin\)/);
    const running = (await start('litecoin-regtest'))!;
    try {
      expect(running.live.local).toBeUndefined();
      expect(running.live.adapter.deriveDepositAddress(7)).toBe(deriveBip84Address(utxoAccountXpub(seed, params), 7, params));
      await running.live.tick();
      expect((await running.live.adapter.head()).number).toBeGreaterThan(100n);
    } finally {
      await running.stop();
    }
    // stopping a client of the node leaves the node running
    expect(Number(await utxo.local!.rpc.call('getblockcount'))).toBeGreaterThan(100);
  });
});
