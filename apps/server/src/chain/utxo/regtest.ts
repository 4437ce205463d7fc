import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../anvil.ts';
import { type RpcValue, rpcInt, UtxoRpc, UtxoRpcError, UtxoRpcTransportError } from './rpc.ts';

/** A fresh node answers RPC within about a second; this bounds the wait, in ms. */
export const REGTEST_READY_TIMEOUT_MS = 30_000;
/** After SIGTERM the node flushes and exits; after this many ms it is killed. */
export const REGTEST_STOP_TIMEOUT_MS = 10_000;
/** Blocks mined to the faucet at start: a coinbase is spendable after 100 more. */
export const REGTEST_FAUCET_BLOCKS = 101;
/** Fee rate (coin per kvB) the node's wallet uses: a fresh regtest has no fee estimates. */
export const REGTEST_FALLBACK_FEE = '0.0002';
/** The Debian package that ships the node. */
export const REGTEST_PACKAGE = 'litecoind';
const FAUCET_WALLET = 'faucet';
const RPC_WALLET_ALREADY_LOADED = -35;

export interface RegtestNode {
  /** RPC of the node (no wallet) */
  rpc: UtxoRpc;
  url: string;
  /** RPC credentials (random per start), for a client of its own such as UTXO_RPC_URL */
  auth: { user: string; password: string };
  pid: number;
  /** An address of the faucet wallet (where `mine` sends the coinbase). */
  faucetAddress: string;
  /** Mines `n` blocks (coinbase to `to`, default the faucet); answers their hashes. */
  mine(n: number, to?: string): Promise<string[]>;
  /** Pays `amount` (a decimal string in coins, e.g. "0.5") from the faucet; answers the txid. */
  send(address: string, amount: string): Promise<string>;
  /** One transaction paying several addresses (decimal strings in coins); answers the txid. */
  sendMany(payments: Readonly<Record<string, string>>): Promise<string>;
  /** SIGTERM (SIGKILL after a bound), then a temporary data directory is removed. Idempotent. */
  stop(): Promise<void>;
}

/** The node's binary on the PATH, or null. */
export function regtestBinary(name = 'litecoind'): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts a regtest node (Litecoin Core here: a Bitcoin Core fork with the same RPC) on free
 * loopback ports, with a funded faucet wallet: in a throw-away temporary data directory, or
 * in `datadir` (kept, so that the chain and the faucet wallet survive a restart).
 */
export async function startRegtest(opts: { binary?: string; datadir?: string } = {}): Promise<RegtestNode> {
  const bin = opts.binary ?? regtestBinary();
  if (!bin) {
    throw new Error(`litecoind is not on the PATH: install the Debian package "${REGTEST_PACKAGE}" (apt-get install ${REGTEST_PACKAGE})`);
  }
  const kept = opts.datadir !== undefined;
  if (opts.datadir !== undefined) mkdirSync(opts.datadir, { recursive: true, mode: 0o700 });
  const datadir = opts.datadir ?? mkdtempSync(join(tmpdir(), 'coffer-regtest-'));
  const [port, rpcport] = [await freePort(), await freePort()];
  const user = 'coffer';
  const password = randomBytes(16).toString('hex');
  const args = [
    '-regtest',
    '-server=1',
    '-listen=0',
    '-dnsseed=0',
    '-upnp=0',
    '-printtoconsole=0',
    `-datadir=${datadir}`,
    `-port=${port}`,
    `-rpcport=${rpcport}`,
    '-rpcbind=127.0.0.1',
    '-rpcallowip=127.0.0.1',
    `-rpcuser=${user}`,
    `-rpcpassword=${password}`,
    `-fallbackfee=${REGTEST_FALLBACK_FEE}`,
    // payouts read their mined transactions by id (getrawtransaction), as on a production node
    '-txindex=1',
    // Litecoin Core refuses replace-by-fee unless told (its default is 0); payouts bump by it
    '-mempoolreplacement=1',
  ];
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let spawnError: Error | null = null;
  child.on('error', (err) => {
    spawnError = err;
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  installExitHook();

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        if (!(await waitExit(child, REGTEST_STOP_TIMEOUT_MS))) {
          child.kill('SIGKILL');
          await waitExit(child, REGTEST_STOP_TIMEOUT_MS);
        }
      }
      running.delete(child);
      child.stderr?.destroy();
      if (!kept) rmSync(datadir, { recursive: true, force: true });
    })();
    return stopping;
  };

  const url = `http://127.0.0.1:${rpcport}`;
  const rpc = new UtxoRpc({ url, user, password });
  try {
    await waitReady(
      rpc,
      child,
      () => spawnError,
      () => stderr,
    );
    return await withFaucet(
      rpc,
      { url, user, password },
      child.pid ?? -1,
      stop,
      existsSync(join(datadir, 'regtest', 'wallets', FAUCET_WALLET)),
    );
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitReady(rpc: UtxoRpc, child: ChildProcess, spawnError: () => Error | null, stderr: () => string) {
  const deadline = Date.now() + REGTEST_READY_TIMEOUT_MS;
  for (;;) {
    const failed = spawnError();
    if (failed) throw failed;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`litecoind exited (${child.exitCode ?? child.signalCode}) before it was ready: ${stderr().trim()}`);
    }
    try {
      await rpc.call('getblockcount');
      return;
    } catch (err) {
      // -28: still loading; a refused connection: not listening yet
      const loading = err instanceof UtxoRpcError && err.code === -28;
      if (!loading && !(err instanceof UtxoRpcTransportError && err.retryable)) throw err;
    }
    if (Date.now() > deadline) throw new Error(`litecoind not ready after ${REGTEST_READY_TIMEOUT_MS} ms: ${stderr().trim()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function withFaucet(
  rpc: UtxoRpc,
  { url, user, password }: { url: string; user: string; password: string },
  pid: number,
  stop: () => Promise<void>,
  walletExists: boolean,
): Promise<RegtestNode> {
  await rpc.call(walletExists ? 'loadwallet' : 'createwallet', [FAUCET_WALLET]).catch((err: unknown) => {
    // -35: loaded already (a wallet may be set to load on start)
    if (!(err instanceof UtxoRpcError && err.code === RPC_WALLET_ALREADY_LOADED)) throw err;
  });
  const wallet = rpc.wallet(FAUCET_WALLET);
  const faucetAddress = String(await wallet.call('getnewaddress', ['', 'bech32']));
  const mine = async (n: number, to = faucetAddress) => (await rpc.call('generatetoaddress', [n, to])) as string[];
  // a kept chain mined its faucet blocks on its first start
  const height = rpcInt(await rpc.call('getblockcount'));
  if (height < REGTEST_FAUCET_BLOCKS) await mine(REGTEST_FAUCET_BLOCKS - height);
  return {
    rpc,
    url,
    auth: { user, password },
    pid,
    faucetAddress,
    mine,
    // Amounts go to the node as decimal strings (it accepts them): never through a float.
    send: async (address, amount) => String(await wallet.call('sendtoaddress', [address, amount])),
    sendMany: async (payments) => String(await wallet.call('sendmany', ['', payments as Record<string, RpcValue>])),
    stop,
  };
}
