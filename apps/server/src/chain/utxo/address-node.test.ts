/**
 * The address layer against a real `litecoind -regtest`: the node derives the same BIP-84
 * addresses from the same key, and judges the same strings valid or invalid (with the
 * differences Coffer makes on purpose, each named below).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bech32, bech32m, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressScriptHex,
  bip84PrivateKey,
  deriveBip84Address,
  normalizeUtxoAddress,
  privateKeyToWif,
  utxoAccountXpub,
} from './address.ts';
import { UTXO_NETWORKS } from './params.ts';

/** litecoind on the PATH (Debian's `litecoind` package puts it in /usr/bin), or null. */
const LITECOIND =
  (process.env.PATH ?? '')
    .split(':')
    .filter(Boolean)
    .map((dir) => join(dir, 'litecoind'))
    .find((file) => existsSync(file)) ?? null;
/** How long a fresh regtest node may take to answer RPC (measured: about 0.4 s). */
const NODE_READY_TIMEOUT_MS = 20_000;
const NODE_POLL_INTERVAL_MS = 50;
const RLTC = UTXO_NETWORKS['litecoin-regtest'];
const SEED = mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

interface Node {
  rpc<T>(method: string, params?: unknown[], wallet?: string): Promise<T>;
  stop(): void;
}

async function startRegtestNode(): Promise<Node> {
  const dir = mkdtempSync(join(tmpdir(), 'coffer-ltc-address-'));
  const [rpcPort, p2pPort] = [await freePort(), await freePort()];
  const password = randomBytes(16).toString('hex');
  const child: ChildProcess = spawn(
    LITECOIND as string,
    [
      '-regtest',
      `-datadir=${dir}`,
      `-rpcport=${rpcPort}`,
      `-port=${p2pPort}`,
      '-listen=0',
      '-keypool=10', // a new wallet otherwise generates 2,000 keys first (3 s)
      '-rpcuser=coffer',
      `-rpcpassword=${password}`,
    ],
    { stdio: 'ignore' },
  );
  const auth = `Basic ${Buffer.from(`coffer:${password}`).toString('base64')}`;
  const rpc = async <T>(method: string, params: unknown[] = [], wallet?: string): Promise<T> => {
    const path = wallet ? `/wallet/${wallet}` : '/';
    const res = await fetch(`http://127.0.0.1:${rpcPort}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
    });
    const body = (await res.json()) as { result: T; error: { message: string } | null };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  const stop = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + NODE_READY_TIMEOUT_MS;
  for (;;) {
    try {
      await rpc('getblockchaininfo');
      return { rpc, stop };
    } catch (err) {
      if (child.exitCode !== null || Date.now() > deadline) {
        stop();
        throw new Error(`litecoind -regtest did not answer: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, NODE_POLL_INTERVAL_MS));
    }
  }
}

/** A descriptor with the checksum the node computes for it. */
async function withChecksum(node: Node, desc: string): Promise<string> {
  const info = await node.rpc<{ checksum: string }>('getdescriptorinfo', [desc]);
  return `${desc}#${info.checksum}`;
}

describe.skipIf(LITECOIND === null)('addresses against litecoind -regtest', () => {
  let node: Node;
  beforeAll(async () => {
    node = await startRegtestNode();
    await node.rpc('createwallet', ['addresses']);
  });
  afterAll(() => node?.stop());

  it('derives the BIP-84 receive and change addresses the node derives from the master key', async () => {
    const master = HDKey.fromMasterSeed(SEED, RLTC.bip32).privateExtendedKey;
    const account = utxoAccountXpub(SEED, RLTC);
    for (const change of [0, 1] as const) {
      const fromMaster = await withChecksum(node, `wpkh(${master}/84'/1'/0'/${change}/*)`);
      const fromAccount = await withChecksum(node, `wpkh(${account}/${change}/*)`);
      const expected = await node.rpc<string[]>('deriveaddresses', [fromMaster, [0, 9]]);
      expect(await node.rpc<string[]>('deriveaddresses', [fromAccount, [0, 9]])).toEqual(expected);
      expect(expected.map((_, i) => deriveBip84Address(account, i, RLTC, change))).toEqual(expected);
    }
  });

  it("accepts every kind of address the node's wallet hands out, with the node's script", async () => {
    for (const type of ['legacy', 'p2sh-segwit', 'bech32', 'legacy', 'p2sh-segwit', 'bech32']) {
      const address = await node.rpc<string>('getnewaddress', ['', type], 'addresses');
      const info = await node.rpc<{ scriptPubKey: string }>('validateaddress', [address]);
      expect(normalizeUtxoAddress(address, RLTC)).toBe(address);
      expect(addressScriptHex(address, RLTC)).toBe(info.scriptPubKey);
    }
  });

  it("holds the key of a derived deposit address: the node's wallet owns it after importing the signer's WIF", async () => {
    const address = deriveBip84Address(utxoAccountXpub(SEED, RLTC), 3, RLTC);
    const wif = privateKeyToWif(bip84PrivateKey(SEED, RLTC, 3), RLTC);
    await node.rpc('importprivkey', [wif, '', false], 'addresses');
    const info = await node.rpc<{ ismine: boolean; solvable: boolean }>('getaddressinfo', [address], 'addresses');
    expect([info.ismine, info.solvable]).toEqual([true, true]);
  });

  it('judges strings as the node does, but for the destinations Coffer refuses on purpose', async () => {
    const program20 = hex.decode('6100fc6343edc8c874496cb2f5bbfec88ea9b77c');
    const program32 = hex.decode('3c671ef1e3913f94980a9e146ba895908550ef4234abb7503d436521aba54c75');
    const segwit = (version: number, program: Uint8Array, coder = version === 0 ? bech32 : bech32m) =>
      coder.encode('rltc', [version, ...coder.toWords(program)]);
    const agree = [
      segwit(0, program20),
      segwit(0, program32),
      segwit(1, program32),
      segwit(0, program20).toUpperCase(),
      segwit(0, program20, bech32m), // v0 with a bech32m checksum
      segwit(1, program32, bech32), // v1 with a bech32 checksum
      `${segwit(0, program20).slice(0, 10).toUpperCase()}${segwit(0, program20).slice(10)}`, // mixed case
      segwit(0, program20).replace('rltc1', 'tltc1'),
      'bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9',
      'ltc1qvyq0cc6rahyvsazfdje0twl7ez82ndmueysm0u',
      'mpWvR79tSrA5xeziB6mjNYWdaVRwBpgnUP',
      'QgDNrG4nJpE4VV7PcFMFhkTgwAHWxWS7pj',
      'LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA',
      '0x52908400098527886E0F7030069857D2E4169EE7',
    ];
    for (const address of agree) {
      const { isvalid } = await node.rpc<{ isvalid: boolean }>('validateaddress', [address]);
      expect([address, normalizeUtxoAddress(address, RLTC) !== null]).toEqual([address, isvalid]);
    }
    const nodeOnly = [
      segwit(2, hex.decode('50ed')), // a future witness version: anyone can spend it today
      segwit(1, hex.decode('4b8d20316baaf061adbfe72c9d914d678cd5004d49356ec9949ba752777171ac')), // off the curve
      '2MxFajLApXpYk4VodBSZSt7rw8y4ryABkfA', // Bitcoin's P2SH version byte, read by Litecoin Core as Q…
    ];
    for (const address of nodeOnly) {
      const { isvalid } = await node.rpc<{ isvalid: boolean }>('validateaddress', [address]);
      expect([address, isvalid, normalizeUtxoAddress(address, RLTC)]).toEqual([address, true, null]);
    }
  });
});
