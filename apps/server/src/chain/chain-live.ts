import type { PublicClient } from 'viem';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { type EventHub, pruneEvents } from '../modules/events/index.ts';
import { EvmChainAdapter } from './evm.ts';
import { uncappedNetworks } from './fee-policy.ts';
import type { HdWallet } from './keys.ts';
import { type Leadership, takeLeadership } from './leader.ts';
import type { LocalChain } from './local-chain.ts';
import { type Clock, type HealthChange, LoopHealth, recordRpcHealth } from './loop-health.ts';
import { payoutWorkers } from './payouts.ts';
import { DepositWatcher, type WatcherLog } from './watcher.ts';

/** Operator events older than this are pruned about once an hour. */
const PRUNE_EVERY_TICKS = 3600;
/**
 * Advisory lock keys of the chain leaders: one per chain id (base + chain id), so the chains
 * of one server run at once and several processes still elect one leader per chain. The base
 * leaves room for any PostgreSQL integer chain id and stays a safe JS integer.
 */
export const CHAIN_LEADER_LOCK_BASE = 0x7341 * 2 ** 32;

export function chainLeaderLock(chainId: number): number {
  return CHAIN_LEADER_LOCK_BASE + chainId;
}

/** One unit of singleton chain work run by the leader on each tick (watcher, sender, sweeper). */
export interface ChainWorker {
  name: string;
  tick(): Promise<unknown>;
}

export interface WorkerContext {
  database: Database;
  adapter: EvmChainAdapter;
  wallet: HdWallet;
  chainId: number;
  log: WatcherLog;
  config: Config;
}

/** The running pieces of one chain (ChainServices.live, .lives). */
export interface ChainLive {
  url: string;
  chainId: number;
  adapter: EvmChainAdapter;
  watcher: DepositWatcher;
  local?: LocalChain;
  /** Runs every worker once, in order (tests drive the chain step by step with this). */
  tick(): Promise<void>;
  /** The loop's health: unhealthy while ticks fail (the RPC node down), with the wait before the next. */
  health(): HealthChange & { nextDelayMs: number };
  addWorker(worker: ChainWorker): void;
}

export interface RunningChain {
  live: ChainLive;
  /** Something changed: run this chain's workers soon, when this process leads it. */
  notify(): void;
  /** Ends the loop and gives up the leadership (a local chain is stopped by its owner). */
  stop(): Promise<void>;
}

export interface RunChainOptions {
  config: Config;
  database: Database;
  log: WatcherLog;
  wallet: HdWallet;
  events: EventHub;
  url: string;
  client: PublicClient;
  local?: LocalChain;
  /** The chain id the node must answer (EVM_RPC_URLS); null: whatever it answers. */
  expectedChainId: number | null;
  /** Throws unless the keys may serve the chain (the signer's policy lists it). */
  checkChain(chainId: number): void;
  loop?: boolean;
  workers?: (ctx: WorkerContext) => ChainWorker[];
  clock?: Clock;
}

/** Connects one chain: checks its id, then runs its watcher and payout workers under its own leader lock. */
export async function runChain(opts: RunChainOptions): Promise<RunningChain> {
  const { config, database, log, wallet, events, url } = opts;
  const adapter = new EvmChainAdapter({ client: opts.client, xpub: wallet.xpub });
  const chainId = await adapter.chainId();
  if (opts.expectedChainId !== null && opts.expectedChainId !== chainId) {
    throw new Error(
      `EVM_RPC_URLS: the node at ${redactUrl(url)} answers chain id ${chainId}, not ${opts.expectedChainId}; fix the pair or the node`,
    );
  }
  opts.checkChain(chainId);
  const uncapped = await uncappedNetworks(database, chainId);
  if (uncapped.length > 0) {
    log.error(
      { chainId, networks: uncapped },
      'networks without a gas price cap (networks.gas_price_cap_wei) on a real chain: they pay out nothing until an operator sets one',
    );
  }
  const watcher = new DepositWatcher(database, adapter, chainId, { log });
  const workers: ChainWorker[] = [{ name: 'watcher', tick: () => watcher.tick() }];
  const ctx: WorkerContext = { database, adapter, wallet, chainId, log, config };
  workers.push(
    ...(opts.workers?.(ctx) ??
      payoutWorkers(ctx, {
        reconcileEveryMs: config.RECONCILE_INTERVAL_SECONDS * 1000,
        sender: { bumpAfterMs: config.WITHDRAW_BUMP_AFTER_SECONDS * 1000 },
        sweeper: { bumpAfterMs: config.WITHDRAW_BUMP_AFTER_SECONDS * 1000 },
      })),
  );

  let ticking: Promise<void> | undefined;
  let ticks = 0;
  const health = new LoopHealth(opts.clock ?? Date.now, config.CHAIN_POLL_INTERVAL_MS);
  // each worker's last error: a failure is logged when it starts or changes, not every tick
  const lastErrors = new Map<string, string>();
  const noteHealth = (failure: string | null) => {
    const changed = health.record(failure);
    if (!changed) return;
    if (changed.healthy) log.info({ chainId }, 'chain loop healthy again');
    else log.warn({ chainId, error: changed.error, nextDelayMs: health.nextDelayMs() }, 'chain loop unhealthy: backing off');
    void recordRpcHealth(database, chainId, changed).catch(() => {});
  };
  const tickOnce = async () => {
    let failure: string | null = null;
    for (const worker of workers) {
      try {
        await worker.tick();
        if (lastErrors.delete(worker.name)) log.info({ chainId, worker: worker.name }, 'chain worker recovered');
      } catch (err) {
        const e = describe(err);
        failure ??= `${worker.name}: ${e.message}`;
        if (lastErrors.get(worker.name) !== e.message)
          log.error({ chainId, worker: worker.name, err: e }, 'chain worker failed; retrying with back-off');
        lastErrors.set(worker.name, e.message);
      }
    }
    if (++ticks % PRUNE_EVERY_TICKS === 0) await pruneEvents(database).catch(() => {});
    events.wake();
    noteHealth(failure);
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
      leadership ??= (await takeLeadership(database, chainLeaderLock(chainId))) ?? undefined;
      if (leadership && !leadership.held()) leadership = undefined;
      if (leadership) await tick();
    } catch (err) {
      noteHealth(`loop: ${describe(err).message}`);
    }
    if (!stopped) timer = setTimeout(loop, health.nextDelayMs());
  };
  if (opts.loop !== false) timer = setTimeout(loop, 0);

  return {
    live: {
      url,
      chainId,
      adapter,
      watcher,
      local: opts.local,
      tick,
      addWorker: (w) => workers.push(w),
      health: () => ({ ...health.state(), nextDelayMs: health.nextDelayMs() }),
    },
    notify: () => {
      if (leadership && opts.loop !== false) void tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await ticking?.catch(() => {});
      await leadership?.release();
    },
  };
}

/** A node URL for a message: its origin only (a path or query may carry an API key). */
function redactUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the configured URL';
  }
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
