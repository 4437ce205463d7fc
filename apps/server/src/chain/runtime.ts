import { parseUnits } from 'viem';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { EventHub, pruneEvents } from '../modules/events/index.ts';
import { createEvmClient, type EvmAddress, EvmChainAdapter, normalizeEvmAddress } from './evm.ts';
import { openKeys } from '../signer/open.ts';
import type { HdWallet } from './keys.ts';
import { type Leadership, takeLeadership } from './leader.ts';
import { isUnspendableEvmAddress } from './unspendable.ts';
import { LOCAL_CHAIN_ID, type LocalChain, startLocalChain } from './local-chain.ts';
import { syncLocalTokenContracts } from './local-contracts.ts';
import { payoutWorkers } from './payouts.ts';
import { DepositWatcher, type WatcherLog } from './watcher.ts';

/** Test coins the faucet sends per call, in each currency's unit. */
export const FAUCET_AMOUNTS: Readonly<Record<string, string>> = { ETH: '1', USDT: '1000', USDC: '1000' };
/** Operator events older than this are pruned about once an hour. */
const PRUNE_EVERY_TICKS = 3600;
/** advisory lock key of the chain leader (one per database). */
export const CHAIN_LEADER_LOCK = 7341011;

/** One unit of singleton chain work run by the leader on each tick (watcher, sender, sweeper). */
export interface ChainWorker {
  name: string;
  tick(): Promise<unknown>;
}

/** What the API modules use of the chain (AppDeps.chain). */
export interface ChainServices {
  /** The chains this server serves (networks of other chains are not listed). */
  chainIds: number[];
  wallet: HdWallet;
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
  /** Running chain pieces, when a chain is connected. */
  live?: {
    url: string;
    chainId: number;
    adapter: EvmChainAdapter;
    watcher: DepositWatcher;
    local?: LocalChain;
    /** Runs every worker once, in order (tests drive the chain step by step with this). */
    tick(): Promise<void>;
    addWorker(worker: ChainWorker): void;
  };
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
}

export interface WorkerContext {
  database: Database;
  adapter: EvmChainAdapter;
  wallet: HdWallet;
  chainId: number;
  log: WatcherLog;
  config: Config;
}

/**
 * Starts what the chain side needs (DESIGN §4, §7): the HD wallet from configuration (or,
 * embedded, generated into DATA_DIR), the local anvil chain when EVM_RPC_URL is unset, and a
 * leader loop (one per database) that runs the deposit watcher and the payout workers.
 */
export async function startChain(opts: ChainOptions): Promise<ChainServices> {
  const { config, database, log } = opts;
  const embedded = !config.EVM_RPC_URL;
  // The keys: the separate signer (docs/decisions/039-separate-signer.md) or, in tests, this process.
  const keys = await openKeys({ config, database, log, connect: opts.connect !== false });
  const wallet = keys.wallet;
  const hot = wallet.hotAddress;
  const events = new EventHub(database);
  const base = {
    wallet,
    hotAddress: hot,
    rules: {
      normalizeAddress: (a: string) => normalizeEvmAddress(a),
      isOwnHotWallet: (a: string) => a.toLowerCase() === hot.toLowerCase(),
      isUnspendable: (a: string) => isUnspendableEvmAddress(a),
    },
    events,
  };

  if (opts.connect === false) {
    return {
      ...base,
      chainIds: [LOCAL_CHAIN_ID],
      notify: () => events.wake(),
      stop: async () => {
        events.stop();
        await keys.stop();
      },
    };
  }

  let local: LocalChain | undefined;
  if (embedded) {
    local = await startLocalChain({
      dataDir: opts.loop === false ? undefined : config.dataDir,
      blockTime: opts.loop === false ? undefined : config.LOCAL_CHAIN_BLOCK_TIME,
      hot,
    });
    await syncLocalTokenContracts(database, local.client, LOCAL_CHAIN_ID, local.tokens);
    await keys.refreshPolicy?.();
  }
  const url = local?.url ?? (config.EVM_RPC_URL as string);
  const client = local?.client ?? createEvmClient(url);
  const adapter = new EvmChainAdapter({ client, xpub: wallet.xpub });
  const chainId = await adapter.chainId();
  keys.checkChain(chainId);
  const watcher = new DepositWatcher(database, adapter, chainId, { log });
  const workers: ChainWorker[] = [{ name: 'watcher', tick: () => watcher.tick() }];
  const ctx: WorkerContext = { database, adapter, wallet, chainId, log, config };
  workers.push(
    ...(opts.workers?.(ctx) ??
      payoutWorkers(ctx, {
        reconcileEveryMs: config.RECONCILE_INTERVAL_SECONDS * 1000,
        reconcileTolerance: config.RECONCILE_TOLERANCE,
        sender: { bumpAfterMs: config.WITHDRAW_BUMP_AFTER_SECONDS * 1000 },
        sweeper: { bumpAfterMs: config.WITHDRAW_BUMP_AFTER_SECONDS * 1000 },
      })),
  );

  let ticking: Promise<void> | undefined;
  let ticks = 0;
  const tickOnce = async () => {
    for (const worker of workers) {
      try {
        await worker.tick();
      } catch (err) {
        log.error({ worker: worker.name, err: describe(err) }, 'chain worker failed; retrying next tick');
      }
    }
    if (++ticks % PRUNE_EVERY_TICKS === 0) await pruneEvents(database).catch(() => {});
    events.wake();
  };
  const tick = () => {
    ticking ??= tickOnce().finally(() => {
      ticking = undefined;
    });
    return ticking;
  };

  let leadership: Leadership | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const loop = async () => {
    if (stopped) return;
    try {
      leadership ??= (await takeLeadership(database, CHAIN_LEADER_LOCK)) ?? undefined;
      if (leadership && !leadership.held()) leadership = undefined;
      if (leadership) await tick();
    } catch (err) {
      log.error({ err: describe(err) }, 'chain loop failed');
    }
    if (!stopped) timer = setTimeout(loop, config.CHAIN_POLL_INTERVAL_MS);
  };
  if (opts.loop !== false) timer = setTimeout(loop, 0);

  const faucet = local
    ? async (networkId: number, to: string) => {
        const [row] = await database.sql.query<{ code: string; token_decimals: number }>(
          'select c.code, n.token_decimals from networks n join currencies c on c.id = n.currency_id where n.id = $1 and n.chain_id = $2',
          [networkId, chainId],
        );
        const amount = row ? FAUCET_AMOUNTS[row.code] : undefined;
        const address = normalizeEvmAddress(to);
        if (!row || !amount || !address || !local) throw new Error('faucet: unknown network or address');
        const txHash = await local.faucet(address, row.code as 'ETH' | 'USDT' | 'USDC', parseUnits(amount, row.token_decimals));
        return { txHash, amount };
      }
    : undefined;

  return {
    ...base,
    chainIds: [chainId],
    faucet: config.FAUCET && faucet ? faucet : undefined,
    notify: () => {
      events.wake();
      if (leadership && opts.loop !== false) void tick();
    },
    live: { url, chainId, adapter, watcher, local, tick, addWorker: (w) => workers.push(w) },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      events.stop();
      await ticking?.catch(() => {});
      await leadership?.release();
      await local?.stop();
      await keys.stop();
    },
  };
}

/** An error for the log: its kind and message, never SQL parameters or request data. */
function describe(err: unknown): { name: string; message: string; code?: string } {
  // Drizzle's wrapper repeats the query and its parameters in its message: use the cause's.
  const e = ((err as { cause?: unknown })?.cause ?? err) as { name?: string; message?: string; code?: unknown };
  return {
    name: e?.name ?? 'Error',
    message: String(e?.message ?? err).slice(0, 300),
    ...(typeof e?.code === 'string' && { code: e.code }),
  };
}
