import { parseUnits } from 'viem';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { EventHub } from '../core/event-hub.ts';
import { openKeys } from '../signer/open.ts';
import { type ChainLive, type ChainWorker, type RunningChain, runChain, type WorkerContext } from './chain-live.ts';
import { createEvmClient, type EvmAddress, normalizeEvmAddress } from './evm.ts';
import { bookGenesisFunding } from './funding.ts';
import type { HdWallet } from './keys.ts';
import { LOCAL_CHAIN_ID, LOCAL_L2_BLOCK_TIME, LOCAL_L2_CHAIN_ID, type LocalChain, startLocalChain } from './local-chain.ts';
import { syncLocalTokenContracts } from './local-contracts.ts';
import type { Clock } from './loop-health.ts';
import { isUnspendableEvmAddress } from './unspendable.ts';
import { utxoParamsByChainId } from './utxo/params.ts';
import { embeddedAccountXpub, type RunningUtxo, startUtxoChain, type UtxoLive } from './utxo/runtime.ts';
import type { WatcherLog } from './watcher.ts';

/** Test coins the faucet sends per call, in each currency's unit. */
export const FAUCET_AMOUNTS: Readonly<Record<string, string>> = { ETH: '1', USDT: '1000', USDC: '1000', LTC: '1' };
export { CHAIN_LEADER_LOCK_BASE, type ChainLive, type ChainWorker, chainLeaderLock, type WorkerContext } from './chain-live.ts';

/** What the API modules use of the chain (AppDeps.chain). */
export interface ChainServices {
  /** The chains this server serves (networks of other chains are not listed). */
  chainIds: number[];
  wallet: HdWallet;
  /** Deposit addresses per chain: the EVM wallet's, or the UTXO chain's BIP-84 ones when it is served. */
  addresses: {
    /** false: a UTXO chain this server has no node for */
    serves(chainId: number): boolean;
    depositAddress(index: number, chainId: number): string;
  };
  hotAddress: EvmAddress;
  rules: {
    normalizeAddress(address: string): string | null;
    isOwnHotWallet(address: string): boolean;
    isUnspendable(address: string): boolean;
  };
  /** Local chain only: sends test coins of a network to an address. */
  faucet?: (networkId: number, to: string) => Promise<{ txHash: string; amount: string }>;
  events: EventHub;
  /** Something changed (a withdrawal was queued, approved): run the workers soon and push events. */
  notify(): void;
  /** The first chain's running pieces, when a chain is connected (EVM_RPC_URL, the first of EVM_RPC_URLS, or 31337). */
  live?: ChainLive;
  /** Every connected chain's running pieces, by chain id (the first is `live`). */
  lives: ReadonlyMap<number, ChainLive>;
  /** The UTXO chain's running pieces (deposits only), when a node serves one (docs/decisions/048-utxo-family.md). */
  utxo?: UtxoLive;
  /** The running pieces of a chain, if this server connects it. */
  liveFor(chainId: number): ChainLive | undefined;
  stop(): Promise<void>;
}

export interface ChainOptions {
  config: Config;
  database: Database;
  log: WatcherLog;
  /** Run the leader loop on a timer (off in tests that call live.tick() themselves). */
  loop?: boolean;
  /** Connect a chain at all (off for API tests that need only addresses). */
  connect?: boolean;
  /** Workers after the watcher; default: reconcile (every RECONCILE_INTERVAL_SECONDS), sender, sweeper. */
  workers?: (ctx: WorkerContext) => ChainWorker[];
  /** The loop's clock (ms); default Date.now. The back-off logic reads time only from it. */
  clock?: Clock;
}

/** The local chains embedded mode runs: 31337, and the L2 unless LOCAL_L2=off. */
export function embeddedChainIds(config: Config): number[] {
  return config.LOCAL_L2 ? [LOCAL_CHAIN_ID, LOCAL_L2_CHAIN_ID] : [LOCAL_CHAIN_ID];
}

/**
 * Starts what the chain side needs: the HD wallet from configuration (or, embedded, generated
 * into DATA_DIR), the local anvil chains when no node is configured, and per chain a leader
 * loop (one per database and chain) that runs its deposit watcher and payout workers
 * (docs/decisions/050-several-networks.md).
 */
export async function startChain(opts: ChainOptions): Promise<ChainServices> {
  const { config, database, log } = opts;
  const embedded = config.evmChains.length === 0;
  const localIds = embeddedChainIds(config);
  // The keys: the separate signer (docs/decisions/039-separate-signer.md) or, in tests, this process.
  const keys = await openKeys({ config, database, log, connect: opts.connect !== false, embeddedChainIds: localIds });
  const wallet = keys.wallet;
  const hot = wallet.hotAddress;
  const events = new EventHub(database);
  const base = {
    wallet,
    addresses: addressesOf(wallet, undefined),
    hotAddress: hot,
    rules: {
      normalizeAddress: (a: string) => normalizeEvmAddress(a),
      isOwnHotWallet: (a: string) => a.toLowerCase() === hot.toLowerCase(),
      isUnspendable: (a: string) => isUnspendableEvmAddress(a),
    },
    events,
  };

  if (opts.connect === false) {
    const known = config.evmChains.flatMap((c) => (c.chainId === null ? [] : [c.chainId]));
    return {
      ...base,
      chainIds: embedded ? localIds : known.length > 0 ? known : [LOCAL_CHAIN_ID],
      lives: new Map(),
      liveFor: () => undefined,
      notify: () => events.wake(),
      stop: async () => {
        events.stop();
        await keys.stop();
      },
    };
  }

  // The UTXO node starts beside the anvils (its first start mines 101 blocks, about 3 s).
  const utxoStarting = startUtxoChain({
    ...opts,
    events,
    embedded,
    keys: wallet,
    localAccountXpub: (p) => embeddedAccountXpub(config, p),
  }).then(
    (running) => ({ running }),
    (error: unknown) => ({ running: null, error }),
  );
  const stopUtxo = async () => (await utxoStarting).running?.stop();
  const locals = embedded
    ? await startLocalChains(opts, localIds, hot, keys.refreshPolicy).catch(async (err) => {
        await stopUtxo();
        await keys.stop();
        throw err;
      })
    : [];
  const running: RunningChain[] = [];
  try {
    const nodes = embedded
      ? locals.map((l) => ({ url: l.url, client: l.client, local: l, chainId: l.chainId as number | null }))
      : config.evmChains.map((c) => ({ url: c.url, client: createEvmClient(c.url), local: undefined, chainId: c.chainId }));
    for (const node of nodes) {
      const { chainId: expectedChainId, ...rest } = node;
      running.push(
        await runChain({
          ...rest,
          expectedChainId,
          config,
          database,
          log,
          wallet,
          events,
          checkChain: (id) => keys.checkChain(id),
          ...loopOptions(opts),
        }),
      );
    }
    const started = await utxoStarting;
    if ('error' in started) throw started.error;
  } catch (err) {
    await Promise.all([...running.map((r) => r.stop()), stopUtxo()]);
    await Promise.all(locals.map((l) => l.stop()));
    await keys.stop();
    throw err;
  }
  const utxo: RunningUtxo | null = (await utxoStarting).running;
  const lives = new Map(running.map((r) => [r.live.chainId, r.live] as const));
  const faucet = locals.length > 0 || utxo?.live.local ? localFaucet(database, lives, utxo?.live) : undefined;

  return {
    ...base,
    addresses: addressesOf(wallet, utxo?.live),
    utxo: utxo?.live,
    chainIds: [...lives.keys(), ...(utxo ? [utxo.live.chainId] : [])],
    faucet: config.FAUCET && faucet ? faucet : undefined,
    notify: () => {
      events.wake();
      for (const r of running) r.notify();
      utxo?.notify();
    },
    live: running[0]?.live,
    lives,
    liveFor: (chainId) => lives.get(chainId),
    async stop() {
      events.stop();
      await Promise.all([...running.map((r) => r.stop()), utxo?.stop()]);
      await Promise.all(locals.map((l) => l.stop()));
      await keys.stop();
    },
  };
}

/** The EVM wallet's deposit addresses, and the UTXO chain's from its account key; an unserved UTXO chain has none. */
function addressesOf(wallet: HdWallet, utxo: UtxoLive | undefined): ChainServices['addresses'] {
  return {
    serves: (chainId) => chainId === utxo?.chainId || !utxoParamsByChainId(chainId),
    depositAddress: (index, chainId) =>
      chainId === utxo?.chainId ? utxo.adapter.deriveDepositAddress(index) : wallet.depositAddress(index),
  };
}

function loopOptions(opts: ChainOptions) {
  return { loop: opts.loop, workers: opts.workers, clock: opts.clock };
}

/**
 * The embedded anvils, started side by side (each a process of its own), their test tokens
 * set on the networks of their chain, and the hot wallet's funding booked as the operator's
 * float (docs/decisions/038) on each.
 */
async function startLocalChains(
  opts: ChainOptions,
  chainIds: number[],
  hot: EvmAddress,
  refreshPolicy: (() => Promise<void>) | undefined,
): Promise<LocalChain[]> {
  const { config, database } = opts;
  const timed = opts.loop !== false;
  const started = await Promise.allSettled(
    chainIds.map((chainId) =>
      startLocalChain({
        chainId,
        dataDir: timed ? config.dataDir : undefined,
        blockTime: timed ? (chainId === LOCAL_L2_CHAIN_ID ? LOCAL_L2_BLOCK_TIME : config.LOCAL_CHAIN_BLOCK_TIME) : undefined,
        hot,
      }),
    ),
  );
  const locals = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  try {
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    for (const local of locals) await syncLocalTokenContracts(database, local.client, local.chainId, local.tokens);
    await refreshPolicy?.();
    for (const local of locals) await bookGenesisFunding(database, local.client, local.chainId, hot, local.hotFunding);
    return locals;
  } catch (err) {
    await Promise.all(locals.map((l) => l.stop()));
    throw err;
  }
}

/** The local chains' faucet: test coins of a network, sent on that network's chain (anvil's, or the regtest node's wallet). */
function localFaucet(database: Database, lives: ReadonlyMap<number, ChainLive>, utxo: UtxoLive | undefined) {
  return async (networkId: number, to: string) => {
    const [row] = await database.sql.query<{ code: string; token_decimals: number; chain_id: number }>(
      'select c.code, n.token_decimals, n.chain_id from networks n join currencies c on c.id = n.currency_id where n.id = $1',
      [networkId],
    );
    if (row && utxo?.local && row.chain_id === utxo.chainId) {
      const amount = FAUCET_AMOUNTS[row.code];
      const address = utxo.adapter.normalizeAddress(to);
      if (!amount || !address) throw new Error('faucet: unknown network or address');
      return { txHash: await utxo.local.send(address, amount), amount };
    }
    const local = row ? lives.get(row.chain_id)?.local : undefined;
    const amount = row ? FAUCET_AMOUNTS[row.code] : undefined;
    const address = normalizeEvmAddress(to);
    if (!row || !amount || !address || !local) throw new Error('faucet: unknown network or address');
    const txHash = await local.faucet(address, row.code as 'ETH' | 'USDT' | 'USDC', parseUnits(amount, row.token_decimals));
    return { txHash, amount };
  };
}
