import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegtestNode, regtestBinary, startRegtest } from './regtest.ts';
import { fromBaseUnits, parseJsonKeepingNumbers, rpcInt, toBaseUnits, UtxoRpc, UtxoRpcError, UtxoRpcTransportError } from './rpc.ts';

describe('exact amounts from a node answer', () => {
  it('keeps every number literal as written, strings untouched', () => {
    const parsed = parseJsonKeepingNumbers('{"a":0.1,"b":[0.2,-3,1e-8],"s":"x 0.5 \\" 7","t":true,"n":null}');
    expect(parsed).toEqual({ a: '0.1', b: ['0.2', '-3', '1e-8'], s: 'x 0.5 " 7', t: true, n: null });
  });

  it('0.1 + 0.2 is 0.3 to the last base unit, and the largest amount is exact', () => {
    const { a, b } = parseJsonKeepingNumbers('{"a":0.10000000,"b":0.20000000}') as { a: string; b: string };
    expect(toBaseUnits(a) + toBaseUnits(b)).toBe(30_000_000n);
    expect(fromBaseUnits(toBaseUnits(a) + toBaseUnits(b))).toBe('0.3');
    // As floats, both sums are off (0.30000000000000004; 21000000 where 21000000.00000000 and one
    // base unit more were meant); as base units from the literal text, nothing is lost.
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(20999999.99999999 + 0.00000001).toBe(21e6);
    const max = parseJsonKeepingNumbers('{"value":20999999.99999999}') as { value: string };
    expect(toBaseUnits(max.value) + 1n).toBe(2_100_000_000_000_000n);
    expect(toBaseUnits(max.value)).toBe(2_099_999_999_999_999n);
    expect(fromBaseUnits(2_099_999_999_999_999n)).toBe('20999999.99999999');
    expect(toBaseUnits('0.00000001')).toBe(1n);
    expect(toBaseUnits('5')).toBe(500_000_000n);
  });

  it('refuses what is not an amount of at most 8 decimals', () => {
    expect(() => toBaseUnits('0.000000001')).toThrow(/at most 8 decimals/);
    expect(() => toBaseUnits('1e-8')).toThrow();
    expect(() => toBaseUnits(undefined)).toThrow();
    expect(() => rpcInt('1.5')).toThrow();
    expect(rpcInt('101')).toBe(101);
  });
});

const bin = regtestBinary();
if (!bin && process.env.CI)
  throw new Error('litecoind is not on the PATH: install the Debian package "litecoind" (CI must run these tests)');
if (!bin) console.warn('rpc.test.ts: the node tests are skipped: litecoind is not on the PATH (Debian package "litecoind")');

describe.skipIf(!bin)('the RPC client against a real regtest node', () => {
  let node: RegtestNode;
  beforeAll(async () => {
    node = await startRegtest();
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
  });

  it('reads back amounts the node paid, exactly, and carries the node error code', async () => {
    const wallet = node.rpc.wallet('faucet');
    const address = String(await wallet.call('getnewaddress', ['', 'bech32']));
    const txids = [await node.send(address, '0.1'), await node.send(address, '0.2'), await node.send(address, '12.34567891')];
    const [block] = await node.mine(1);
    const txs = (await node.rpc.batch(txids.map((txid) => ({ method: 'getrawtransaction', params: [txid, true, block] })))) as Array<{
      vout: Array<{ value: string; scriptPubKey: { addresses?: string[]; address?: string } }>;
    }>;
    const paid = txs.map((tx) => tx.vout.find((o) => (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]) === address)!.value);
    expect(paid.map((v) => toBaseUnits(v))).toEqual([10_000_000n, 20_000_000n, 1_234_567_891n]);
    const received = await wallet.call('getreceivedbyaddress', [address]);
    expect(toBaseUnits(received as string)).toBe(1_264_567_891n);

    const err = await node.rpc.call('getblockhash', [1_000_000]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UtxoRpcError);
    expect((err as UtxoRpcError).code).toBe(-8);
  });

  it('names a wrong password and a node that is not there', async () => {
    const wrong = new UtxoRpc({ url: node.url, user: 'coffer', password: 'wrong' });
    await expect(wrong.call('getblockcount')).rejects.toThrow(/wrong rpc user or password/);
    const gone = new UtxoRpc({ url: 'http://127.0.0.1:9', user: 'x', password: 'y' });
    const err = await gone.call('getblockcount').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UtxoRpcTransportError);
    expect((err as UtxoRpcTransportError).message).toMatch(/connection/);
  });
});
