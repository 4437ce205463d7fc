import type { PublicClient } from 'viem';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { EventHub } from '../core/event-hub.ts';
import { EvmChainAdapter } from './evm.ts';
import { uncappedNetworks } from './fee-policy.ts';
import type { HdWallet } from './keys.ts';
import { type ChainWorker, startLeaderLoop } from './leader-loop.ts';
import type { LocalChain } from './local-chain.ts';
import type { Clock, HealthChange } from './loop-health.ts';
import { payoutWorkers } from './payouts.ts';
import { DepositWatcher, type WatcherLog } from './watcher.ts';

export { CHAIN_LEADER_LOCK_BASE, type ChainWorker, chainLeaderLock } from './leader-loop.ts';

export interface WorkerContext {
  database: Database;
  adapter: EvmChainAdapter;
  wallet: HdWallet;
  chainId: number;
  log: WatcherLog;
  config: Config;
  /** The loop's clock (ms): workers that decide by elapsed time read it, never Date.now (decision 064). */
  clock: Clock;
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
  const clock = opts.clock ?? Date.now;
  const ctx: WorkerContext = { database, adapter, wallet, chainId, log, config, clock };
  workers.push(
    ...(opts.workers?.(ctx) ??
      payoutWorkers(ctx, {
        reconcileEveryMs: config.RECONCILE_INTERVAL_SECONDS * 1000,
        sender: { bumpAfterMs: config.WITHDRAW_BUMP_AFTER_SECONDS * 1000 },
        sweeper: { bumpAfterMs: config.WITHDRAW_BUMP_AFTER_SECONDS * 1000 },
      })),
  );

  const loop = startLeaderLoop({
    database,
    chainId,
    log,
    events,
    workers,
    pollIntervalMs: config.CHAIN_POLL_INTERVAL_MS,
    timed: opts.loop !== false,
    clock,
  });

  return {
    live: {
      url,
      chainId,
      adapter,
      watcher,
      local: opts.local,
      tick: loop.tick,
      addWorker: loop.addWorker,
      health: loop.health,
    },
    notify: loop.notify,
    stop: loop.stop,
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
