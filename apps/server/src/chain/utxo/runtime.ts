import { join } from 'node:path';
import { mnemonicToSeedSync } from '@scure/bip39';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { EventHub } from '../../core/event-hub.ts';
import { startLeaderLoop } from '../leader-loop.ts';
import type { Clock } from '../loop-health.ts';
import { DepositWatcher, type WatcherLog } from '../watcher.ts';
import { type Keyring, loadMnemonic } from '../keys.ts';
import { UtxoChainAdapter } from './adapter.ts';
import { normalizeAccountXpub, utxoAccountXpub } from './address.ts';
import { UtxoMempoolWatcher } from './mempool.ts';
import { UtxoPayouts } from './payouts.ts';
import { reconcileUtxo } from './reconcile.ts';
import { UTXO_NETWORKS, type UtxoParams } from './params.ts';
import { type RegtestNode, regtestBinary, startRegtest } from './regtest.ts';
import { UtxoRpc } from './rpc.ts';

/** Where the embedded regtest node keeps its chain and faucet wallet, under DATA_DIR. */
export const LOCAL_UTXO_DIR = 'litecoin-regtest';
/** What getblockchaininfo.chain answers on each kind of network. */
const NODE_CHAIN_NAME = { main: 'main', test: 'test', regtest: 'regtest' } as const;

/** The running pieces of the UTXO chain (ChainServices.utxo): deposits only, no payouts yet. */
export interface UtxoLive {
  chainId: number;
  params: UtxoParams;
  adapter: UtxoChainAdapter;
  watcher: DepositWatcher;
  /** Unconfirmed deposits: outputs to deposit addresses in the node's mempool (decision 056). */
  mempool: UtxoMempoolWatcher;
  /** The embedded regtest node (its faucet wallet; tests mine with it). */
  local?: RegtestNode;
  /** The payout worker, when the keys can sign for this chain (null: deposits only). */
  payouts: UtxoPayouts | null;
  /** Runs the deposit watcher and the payouts once (tests drive the chain with this). */
  tick(): Promise<void>;
}

export interface RunningUtxo {
  live: UtxoLive;
  notify(): void;
  /** Ends the loop and the block timer, gives up the leadership, and stops an embedded node. */
  stop(): Promise<void>;
}

export interface UtxoChainOptions {
  config: Config;
  database: Database;
  log: WatcherLog;
  events: EventHub;
  /** Embedded mode (no EVM node configured): a local regtest node may run. */
  embedded: boolean;
  /** The embedded wallet's BIP-84 account key of a network (from the mnemonic in DATA_DIR). */
  localAccountXpub(params: UtxoParams): string;
  /** The keys that sign payouts (the signer); without them, or for another account key, deposits only. */
  keys?: Keyring;
  loop?: boolean;
  clock?: Clock;
}

/**
 * The UTXO chain this server serves, if any (docs/decisions/048-utxo-family.md): the node of
 * UTXO_RPC_URL, else in embedded mode a local litecoind regtest node when it is on the PATH
 * and LOCAL_UTXO allows it; null otherwise. Its deposit watcher runs under the chain's own
 * leader lock, like an EVM chain's.
 */
export async function startUtxoChain(opts: UtxoChainOptions): Promise<RunningUtxo | null> {
  const { config, database } = opts;
  const timed = opts.loop !== false;
  if (config.utxoNode) {
    const { url, user, password, params, accountXpub } = config.utxoNode;
    const rpc = new UtxoRpc({ url, user, password });
    await checkNodeChain(rpc, params);
    return runUtxoChain(opts, rpc, params, accountXpub);
  }
  if (!opts.embedded || !config.LOCAL_UTXO || !regtestBinary()) return null;
  const params = UTXO_NETWORKS['litecoin-regtest'];
  const local = await startRegtest({ datadir: timed ? join(config.dataDir, LOCAL_UTXO_DIR) : undefined });
  try {
    // The local node's network row starts disabled (migration 0048): deposits open with the node.
    await database.sql.query(`update networks set deposit_enabled = true where chain_id = $1 and family = 'utxo'`, [params.chainId]);
    const running = await runUtxoChain(opts, local.rpc, params, opts.localAccountXpub(params), local);
    // ... and its withdrawals with the payouts
    if (running.live.payouts) {
      await database.sql.query(`update networks set withdraw_enabled = true where chain_id = $1 and family = 'utxo'`, [params.chainId]);
    }
    return running;
  } catch (err) {
    await local.stop();
    throw err;
  }
}

/** The node must run the configured network: deposits derived for mainnet must not be watched on testnet. */
async function checkNodeChain(rpc: UtxoRpc, params: UtxoParams): Promise<void> {
  const info = (await rpc.call('getblockchaininfo')) as { chain: string };
  const kind = params.name.endsWith('-regtest') ? 'regtest' : params.name.endsWith('-testnet') ? 'test' : 'main';
  if (info.chain !== NODE_CHAIN_NAME[kind]) {
    throw new Error(`UTXO_RPC_URL: the node runs the "${info.chain}" chain, not ${params.label} (UTXO_NETWORK=${params.name})`);
  }
}

async function runUtxoChain(
  opts: UtxoChainOptions,
  rpc: UtxoRpc,
  params: UtxoParams,
  accountXpub: string,
  local?: RegtestNode,
): Promise<RunningUtxo> {
  const { config, database, log, events } = opts;
  const chainId = params.chainId;
  const adapter = new UtxoChainAdapter(rpc, params, accountXpub);
  const watcher = new DepositWatcher(database, adapter, chainId, { log });
  const mempool = new UtxoMempoolWatcher(database, rpc, adapter, chainId, { log });
  const timed = opts.loop !== false;
  const clock = opts.clock ?? Date.now;
  const payouts = await payoutsFor(opts, rpc, params, accountXpub, clock);
  const loop = startLeaderLoop({
    database,
    chainId,
    log,
    events,
    // The mempool after the blocks: a transaction mined meanwhile is then already recorded as pending.
    workers: [
      { name: 'watcher', tick: () => watcher.tick() },
      { name: 'mempool', tick: () => mempool.tick() },
      // a drift found here freezes the payouts before they run in the same tick
      {
        name: 'reconcile',
        tick: reconcileEvery(config.RECONCILE_INTERVAL_SECONDS * 1000, clock, () => reconcileUtxo({ database, rpc, params, log })),
      },
      ...(payouts ? [{ name: 'payouts', tick: () => payouts.tick() }] : []),
    ],
    pollIntervalMs: config.CHAIN_POLL_INTERVAL_MS,
    timed,
    clock,
  });
  // The local node mines on a clock like anvil's block time; a test mines itself.
  const miner =
    local && timed && config.LOCAL_UTXO_BLOCK_SECONDS > 0
      ? setInterval(
          () => void local.mine(1).catch((err: Error) => log.warn({ chainId, err: { message: err.message } }, 'regtest block not mined')),
          config.LOCAL_UTXO_BLOCK_SECONDS * 1000,
        )
      : undefined;

  return {
    live: { chainId, params, adapter, watcher, mempool, payouts, local, tick: loop.tick },
    notify: loop.notify,
    async stop() {
      if (miner) clearInterval(miner);
      await loop.stop();
      await local?.stop();
    },
  };
}

/** Runs `run` when at least `everyMs` passed (by the clock) since it last ran; the first tick runs it. */
function reconcileEvery(everyMs: number, clock: Clock, run: () => Promise<unknown>): () => Promise<unknown> {
  let last = Number.NEGATIVE_INFINITY;
  return async () => {
    if (clock() - last < everyMs) return null;
    last = clock();
    return run();
  };
}

/**
 * The payout worker of the chain (docs/decisions/051-utxo-payouts.md), when the keys sign for
 * it with the same account key the deposit addresses derive from; otherwise payouts stay off
 * (a change address or an input of another key would never be spendable) and it says why.
 */
async function payoutsFor(
  opts: UtxoChainOptions,
  rpc: UtxoRpc,
  params: UtxoParams,
  accountXpub: string,
  clock: Clock,
): Promise<UtxoPayouts | null> {
  const { config, database, log, keys } = opts;
  if (!keys) return null;
  let signerXpub: string;
  try {
    signerXpub = await keys.utxoAccountXpub(params);
  } catch (err) {
    log.warn(
      { chainId: params.chainId, err: { message: (err as Error).message } },
      'UTXO payouts off: the signer does not serve this chain',
    );
    return null;
  }
  if (normalizeAccountXpub(signerXpub, params) !== normalizeAccountXpub(accountXpub, params)) {
    log.error({ chainId: params.chainId }, 'UTXO payouts off: the signer holds another account key than UTXO_ACCOUNT_XPUB');
    return null;
  }
  return new UtxoPayouts({
    database,
    rpc,
    params,
    keys,
    accountXpub,
    clock,
    log,
    batchIntervalMs: config.UTXO_BATCH_SECONDS * 1000,
    batchSize: config.UTXO_BATCH_SIZE,
    bumpAfterMs: config.UTXO_BUMP_AFTER_SECONDS * 1000,
  });
}

/**
 * The BIP-84 account key of the embedded wallet's mnemonic (the one the embedded signer holds,
 * in DATA_DIR or WALLET_MNEMONIC): only the local regtest node uses it, whose coins are
 * worthless; a real node's key comes from UTXO_ACCOUNT_XPUB.
 */
export function embeddedAccountXpub(config: Config, params: UtxoParams): string {
  const { mnemonic } = loadMnemonic({
    mnemonic: config.WALLET_MNEMONIC,
    mnemonicFile: config.WALLET_MNEMONIC_FILE,
    dataDir: config.dataDir,
    allowGenerate: false,
  });
  return utxoAccountXpub(mnemonicToSeedSync(mnemonic), params);
}
