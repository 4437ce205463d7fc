import { Gauge, type Registry } from 'prom-client';
import { writersOf } from '../ledger/group-commit.ts';
import type { Config } from '../config.ts';
import { type Database, LANE_POOL_SIZE } from '../db/client.ts';
import { withdrawalWaitGauges } from './withdrawal-waits.ts';

/** The chain head is asked over RPC at each scrape; a node slower than this leaves the lag out. */
const CHAIN_HEAD_TIMEOUT_MS = 2_000;
/** Withdrawal states that are not final: a withdrawal should leave each of them on its own. */
export const OPEN_WITHDRAWAL_STATES = ['review', 'queued', 'broadcast', 'confirming'] as const;
/** The writers that always have a queue-depth series (0 before their first batch). */
const KNOWN_WRITERS = ['transfers', 'swaps'];

/** What the metrics read: the app's database and, when a chain runs, its head. */
export interface MetricsDeps {
  config: Pick<Config, 'DATABASE_POOL_SIZE'>;
  database: Database;
  chain: { lives: ReadonlyMap<number, { chainId: number; adapter: { head(): Promise<{ number: bigint }> } }> };
}

/** What a source answered in this scrape: its value, or undefined when it failed. */
type Answer<T> = { ok: true; value: T } | { ok: false };

/**
 * Gauges read at scrape time (nothing polls in between): group-commit queues, the PostgreSQL
 * pool, the last ledger audit and, when a chain runs, the watcher's lag, open withdrawals and
 * open chain incidents. The queries ("sources") run once per scrape, before the registry is
 * read, so gauges fed by one query share its answer and a failure is counted in the same
 * scrape (coffer_metrics_collect_errors_total); a failed source leaves its labelled gauges out
 * and the scrape itself still answers. Answers `refresh`, to await before reading the registry.
 */
export function collectors(deps: MetricsDeps, registry: Registry, failed: (source: string) => void): () => Promise<void> {
  const registers = [registry];
  const sources: Array<() => Promise<void>> = [];
  /** A query run once per scrape; the getter answers this scrape's result. */
  const source = <T>(name: string, load: () => Promise<T>): (() => Answer<T>) => {
    let answer: Answer<T> = { ok: false };
    sources.push(async () => {
      try {
        answer = { ok: true, value: await load() };
      } catch {
        answer = { ok: false };
        failed(name);
      }
    });
    return () => answer;
  };

  new Gauge({
    name: 'coffer_group_commit_queue_depth',
    help: 'Items waiting for the next group-commit batch, by writer',
    labelNames: ['writer'] as const,
    registers,
    collect() {
      this.reset();
      for (const writer of KNOWN_WRITERS) this.set({ writer }, 0);
      for (const [statement, writer] of writersOf(deps.database)) this.set({ writer: writerLabel(statement) }, writer.queued);
    },
  });

  const poolStats = deps.database.poolStats?.bind(deps.database);
  if (poolStats) {
    const poolGauge = (name: string, help: string, pick: (s: ReturnType<NonNullable<typeof poolStats>>) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(pick(poolStats()));
        },
      });
    poolGauge('coffer_db_pool_connections', 'PostgreSQL connections the pool holds (in use and idle)', (s) => s.total);
    poolGauge('coffer_db_pool_idle_connections', 'PostgreSQL connections of the pool that are idle', (s) => s.idle);
    poolGauge('coffer_db_pool_waiting_requests', 'Queries waiting for a free pool connection', (s) => s.waiting);
    new Gauge({
      name: 'coffer_db_pool_max_connections',
      help: 'Pool size of this process (DATABASE_POOL_SIZE)',
      registers,
    }).set(deps.config.DATABASE_POOL_SIZE);
    // The group-commit writers' held, pipelined connections (decision 030): a pool of their own.
    poolGauge('coffer_db_lane_connections', "PostgreSQL connections of the writers' lane pool (held and idle)", (s) => s.lanes.total);
    poolGauge('coffer_db_lane_idle_connections', 'Lane connections no writer holds', (s) => s.lanes.idle);
    poolGauge('coffer_db_lane_waiting_writers', 'Writers waiting for a lane connection', (s) => s.lanes.waiting);
    new Gauge({
      name: 'coffer_db_lane_max_connections',
      help: 'Lane pool size of this process (LANE_POOL_SIZE)',
      registers,
    }).set(LANE_POOL_SIZE);
  }

  const lastAudit = source('ledger_audit', async () => {
    const [row] = await deps.database.sql.query<{ ok: boolean; at: number }>(
      'select ok, extract(epoch from ran_at)::float8 as at from ledger_audit_runs order by id desc limit 1',
    );
    return row;
  });
  new Gauge({
    name: 'coffer_ledger_audit_last_failed',
    help: 'The last stored ledger audit run found a violation (1) or not (0; also before the first run)',
    registers,
    collect() {
      const audit = lastAudit();
      this.set(audit.ok && audit.value?.ok === false ? 1 : 0);
    },
  });
  new Gauge({
    name: 'coffer_ledger_audit_last_run_timestamp_seconds',
    help: 'When the last stored ledger audit ran (Unix seconds; 0 before the first run)',
    registers,
    collect() {
      const audit = lastAudit();
      this.set(audit.ok && audit.value ? Number(audit.value.at) : 0);
    },
  });

  // one series per connected chain (docs/decisions/050-several-networks.md)
  const lives = [...deps.chain.lives.values()];
  if (lives.length > 0) {
    const chainIds = lives.map((l) => l.chainId);
    const lags = lives.map((live) => ({
      chainId: String(live.chainId),
      lag: source('chain_lag', async () => {
        const [head, [cursor]] = await Promise.all([
          withTimeout(live.adapter.head(), CHAIN_HEAD_TIMEOUT_MS, 'chain head'),
          deps.database.sql.query<{ block_number: number }>('select block_number from chain_cursors where chain_id = $1', [live.chainId]),
        ]);
        return { head: Number(head.number), cursor: cursor ? Number(cursor.block_number) : null };
      }),
    }));
    new Gauge({
      name: 'coffer_chain_rpc_up',
      help: 'The chain node answered the head request of this scrape (1) or not (0)',
      labelNames: ['chain_id'] as const,
      registers,
      collect() {
        for (const { chainId, lag } of lags) this.set({ chain_id: chainId }, lag().ok ? 1 : 0);
      },
    });
    new Gauge({
      name: 'coffer_chain_watcher_lag_blocks',
      help: "Blocks between the chain head and the deposit watcher's cursor (absent before the watcher's first tick)",
      labelNames: ['chain_id'] as const,
      registers,
      collect() {
        this.reset();
        for (const { chainId, lag } of lags) {
          const answer = lag();
          if (answer.ok && answer.value.cursor !== null) {
            this.set({ chain_id: chainId }, Math.max(0, answer.value.head - answer.value.cursor));
          }
        }
      },
    });

    const openWithdrawals = source('withdrawals', () =>
      deps.database.sql.query<{ status: string; n: number; oldest: number }>(
        `select status, count(*)::int as n, extract(epoch from now() - min(updated_at))::float8 as oldest
         from withdrawals where status = any($1::text[]) group by status`,
        [OPEN_WITHDRAWAL_STATES],
      ),
    );
    new Gauge({
      name: 'coffer_withdrawals',
      help: 'Withdrawals in each state that is not final (review, queued, broadcast, confirming)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.reset();
        const answer = openWithdrawals();
        if (!answer.ok) return;
        for (const state of OPEN_WITHDRAWAL_STATES) {
          this.set({ state }, Number(answer.value.find((r) => r.status === state)?.n ?? 0));
        }
      },
    });
    new Gauge({
      name: 'coffer_withdrawals_oldest_age_seconds',
      help: 'Seconds since the oldest withdrawal in each open state last changed (absent when none is in it)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.reset();
        const answer = openWithdrawals();
        if (answer.ok) for (const row of answer.value) this.set({ state: row.status }, Number(row.oldest));
      },
    });

    withdrawalWaitGauges(deps.database, registers, source);

    const openIncidents = source('chain_incidents', () =>
      deps.database.sql.query<{ kind: string; n: number }>(
        'select kind, count(*)::int as n from chain_incidents where resolved_at is null and chain_id = any($1::int[]) group by kind',
        [chainIds],
      ),
    );
    new Gauge({
      name: 'coffer_chain_incidents_open',
      help: 'Chain incidents not yet resolved by an operator, by kind (an open reconcile_drift freezes payouts)',
      labelNames: ['kind'] as const,
      registers,
      collect() {
        this.reset();
        const answer = openIncidents();
        if (answer.ok) for (const row of answer.value) this.set({ kind: row.kind }, Number(row.n));
      },
    });

    // docs/decisions/037: the chain loop's health as the leader wrote it (why payouts wait: withdrawal-waits.ts)
    const loopHealth = source('chain_rpc_health', () =>
      deps.database.sql.query<{ chain_id: number; healthy: boolean; since: number }>(
        'select chain_id, healthy, extract(epoch from since)::float8 as since from chain_rpc_health where chain_id = any($1::int[])',
        [chainIds],
      ),
    );
    new Gauge({
      name: 'coffer_chain_loop_healthy',
      help: "The chain leader's last tick succeeded (1) or its workers fail and it backs off (0; the RPC node is down); absent before the first change",
      labelNames: ['chain_id'] as const,
      registers,
      collect() {
        this.reset();
        const rows = loopHealth();
        if (rows.ok) for (const row of rows.value) this.set({ chain_id: String(row.chain_id) }, row.healthy ? 1 : 0);
      },
    });
  }

  return async () => {
    await Promise.all(sources.map((run) => run()));
  };
}

/** coffer_transfer_batch_v2 -> transfers, coffer_swap_batch_v2 -> swaps (stable across statement versions). */
export function writerLabel(statement: string): string {
  const m = /^coffer_([a-z_]+?)_batch(_v\d+)?$/.exec(statement);
  return m ? `${m[1]}s` : statement;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
