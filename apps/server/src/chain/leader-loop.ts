import type { Database } from '../db/client.ts';
import { type EventHub, pruneEvents } from '../core/event-hub.ts';
import { type Leadership, takeLeadership } from './leader.ts';
import { type Clock, type HealthChange, LoopHealth, recordRpcHealth } from './loop-health.ts';
import type { WatcherLog } from './watcher.ts';

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

export interface LeaderLoopOptions {
  database: Database;
  chainId: number;
  log: WatcherLog;
  events: EventHub;
  /** Run in order on each tick; more may be added later (addWorker). */
  workers: ChainWorker[];
  pollIntervalMs: number;
  /** Run on a timer (off in tests that call tick() themselves). */
  timed: boolean;
  /** The loop's clock (ms); the back-off logic reads time only from it. */
  clock: Clock;
}

export interface LeaderLoop {
  /** Runs every worker once, in order; concurrent calls share one run. */
  tick(): Promise<void>;
  /** Something changed: run the workers soon, when this process leads the chain. */
  notify(): void;
  health(): HealthChange & { nextDelayMs: number };
  addWorker(worker: ChainWorker): void;
  /** Ends the loop, waits for a tick in progress and gives up the leadership. */
  stop(): Promise<void>;
}

/**
 * One chain's leader loop (EVM or UTXO alike): takes the chain's advisory lock, then runs the
 * workers each poll, backing off while they fail (LoopHealth). A worker's failure is logged
 * when it starts or changes, not every tick, and only its kind and message (describeError).
 */
export function startLeaderLoop(opts: LeaderLoopOptions): LeaderLoop {
  const { database, chainId, log, events, workers } = opts;
  const health = new LoopHealth(opts.clock, opts.pollIntervalMs);
  const lastErrors = new Map<string, string>();
  let ticking: Promise<void> | undefined;
  let ticks = 0;

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
        const e = describeError(err);
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
      noteHealth(`loop: ${describeError(err).message}`);
    }
    if (!stopped) timer = setTimeout(loop, health.nextDelayMs());
  };
  if (opts.timed) timer = setTimeout(loop, 0);

  return {
    tick,
    notify: () => {
      if (leadership && opts.timed) void tick();
    },
    health: () => ({ ...health.state(), nextDelayMs: health.nextDelayMs() }),
    addWorker: (w) => workers.push(w),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await ticking?.catch(() => {});
      await leadership?.release();
    },
  };
}

/** An error for the log: its kind and message, never SQL parameters or request data. */
export function describeError(err: unknown): { name: string; message: string; code?: string } {
  // Drizzle's wrapper repeats the query and its parameters in its message: use the cause's.
  const e = ((err as { cause?: unknown })?.cause ?? err) as { name?: string; message?: string; code?: unknown };
  return {
    name: e?.name ?? 'Error',
    message: String(e?.message ?? err).slice(0, 300),
    ...(typeof e?.code === 'string' && { code: e.code }),
  };
}
