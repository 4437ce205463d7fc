import { join } from 'node:path';
import { mnemonicToSeedSync } from '@scure/bip39';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { EventHub } from '../../modules/events/index.ts';
import { startLeaderLoop } from '../leader-loop.ts';
import type { Clock } from '../loop-health.ts';
import { DepositWatcher, type WatcherLog } from '../watcher.ts';
import { loadMnemonic } from '../keys.ts';
import { UtxoChainAdapter } from './adapter.ts';
import { utxoAccountXpub } from './address.ts';
import { UtxoMempoolWatcher } from './mempool.ts';
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
  /** Runs the deposit watcher once (tests drive the chain with this). */
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
    return runUtxoChain(opts, local.rpc, params, opts.localAccountXpub(params), local);
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

function runUtxoChain(opts: UtxoChainOptions, rpc: UtxoRpc, params: UtxoParams, accountXpub: string, local?: RegtestNode): RunningUtxo {
  const { config, database, log, events } = opts;
  const chainId = params.chainId;
  const adapter = new UtxoChainAdapter(rpc, params, accountXpub);
  const watcher = new DepositWatcher(database, adapter, chainId, { log });
  const mempool = new UtxoMempoolWatcher(database, rpc, adapter, chainId, { log });
  const timed = opts.loop !== false;
  const loop = startLeaderLoop({
    database,
    chainId,
    log,
    events,
    // The mempool after the blocks: a transaction mined meanwhile is then already recorded as pending.
    workers: [
      { name: 'watcher', tick: () => watcher.tick() },
      { name: 'mempool', tick: () => mempool.tick() },
    ],
    pollIntervalMs: config.CHAIN_POLL_INTERVAL_MS,
    timed,
    clock: opts.clock ?? Date.now,
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
    live: { chainId, params, adapter, watcher, mempool, local, tick: loop.tick },
    notify: loop.notify,
    async stop() {
      if (miner) clearInterval(miner);
      await loop.stop();
      await local?.stop();
    },
  };
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
