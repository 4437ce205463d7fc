import type { Clock } from '../core/clock.ts';
import type { Database } from '../db/client.ts';

/**
 * The chain loop's health and back-off (docs/decisions/037). While a worker fails (the RPC
 * node is down, the database refuses), the leader loop waits longer after each failed tick,
 * doubling from the poll interval up to LOOP_BACKOFF_MAX_MS, and logs once per change of
 * state (not once a second); the first good tick goes back to the poll interval. Pure logic
 * over a clock the caller passes in; the runtime writes each change to chain_rpc_health,
 * which the metrics and the console dashboard read (any process, not only the leader).
 */

/** The longest wait between two ticks of a failing loop (ms). */
export const LOOP_BACKOFF_MAX_MS = 60_000;

export type { Clock } from '../core/clock.ts';

export interface HealthChange {
  healthy: boolean;
  /** what failed, when unhealthy (the first worker's error of the tick) */
  error: string | null;
  /** consecutive failed ticks */
  failures: number;
  /** when the current state began (clock ms) */
  since: number;
}

export class LoopHealth {
  private failures = 0;
  private error: string | null = null;
  private since: number;

  constructor(
    private readonly clock: Clock,
    private readonly pollMs: number,
  ) {
    this.since = clock();
  }

  get healthy(): boolean {
    return this.failures === 0;
  }

  /**
   * Records a tick: `error` null when every worker succeeded. Returns the new state when it
   * changed (healthy <-> unhealthy, or another error), else null: the caller logs only then.
   */
  record(error: string | null): HealthChange | null {
    const wasHealthy = this.healthy;
    const before = this.error;
    this.failures = error === null ? 0 : this.failures + 1;
    this.error = error;
    if (wasHealthy === this.healthy && before === error) return null;
    if (wasHealthy !== this.healthy) this.since = this.clock();
    return this.state();
  }

  state(): HealthChange {
    return { healthy: this.healthy, error: this.error, failures: this.failures, since: this.since };
  }

  /** How long to wait before the next tick (ms): the poll interval, or the back-off while failing. */
  nextDelayMs(): number {
    if (this.failures === 0) return this.pollMs;
    const doubled = Math.max(this.pollMs, 1) * 2 ** Math.min(this.failures, 30);
    return Math.min(doubled, LOOP_BACKOFF_MAX_MS);
  }
}

/** Stores a change of the chain loop's health (read by the metrics and the console dashboard). */
export async function recordRpcHealth(database: Database, chainId: number, state: HealthChange): Promise<void> {
  await database.sql.query(
    `insert into chain_rpc_health (chain_id, healthy, last_error, since, updated_at) values ($1, $2, $3, to_timestamp($4 / 1000.0), now())
     on conflict (chain_id) do update set healthy = excluded.healthy, last_error = excluded.last_error, since = excluded.since,
       updated_at = now()`,
    [chainId, state.healthy, state.error?.slice(0, 500) ?? null, state.since],
  );
}
