import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { observeBatches } from '../ledger/group-commit.ts';
import { collectors, type MetricsDeps, writerLabel } from './collectors.ts';

/**
 * Request latency buckets, in seconds: fine below 50 ms (the p99 budget per route, see
 * docs/operations.md "What to alert on"), coarse above.
 */
const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Items per group-commit batch; a batch holds at most MAX_BATCH (50) items. */
const BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 20, 30, 40, 50];
/** One group-commit statement, in seconds. */
const BATCH_DURATION_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** The route label of a request no route matched (404s, the web app's history fallback). */
export const UNMATCHED_ROUTE = 'unmatched';

export interface Metrics {
  registry: Registry;
  /** One finished HTTP request; `route` is the route pattern, never the raw URL. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** The Prometheus text exposition of everything (collects the scrape-time gauges). */
  scrape(): Promise<string>;
  contentType: string;
  /** Stops observing the database's group-commit writers. */
  close(): void;
}

/**
 * The metrics of one app: a registry of its own (tests build several apps in one process, so
 * never prom-client's global one). Process metrics (memory, event loop lag, GC) start at the
 * first scrape: their monitors run until the process ends, and most apps (tests) are never
 * scraped.
 */
export function createMetrics(deps: MetricsDeps, opts: { defaultLabels?: Record<string, string> } = {}): Metrics {
  const registry = new Registry();
  if (opts.defaultLabels) registry.setDefaultLabels(opts.defaultLabels);

  const requestDuration = new Histogram({
    name: 'coffer_http_request_duration_seconds',
    help: 'HTTP requests by route pattern: time from request to response sent',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [registry],
  });
  const batchSize = new Histogram({
    name: 'coffer_group_commit_batch_size',
    help: 'Items per group-commit batch (one statement, one commit) by writer',
    labelNames: ['writer'] as const,
    buckets: BATCH_SIZE_BUCKETS,
    registers: [registry],
  });
  const batchDuration = new Histogram({
    name: 'coffer_group_commit_batch_duration_seconds',
    help: 'Time one group-commit batch took (its statement, and single retries if the database refused it whole)',
    labelNames: ['writer'] as const,
    buckets: BATCH_DURATION_BUCKETS_SECONDS,
    registers: [registry],
  });
  const collectErrors = new Counter({
    name: 'coffer_metrics_collect_errors_total',
    help: 'Scrape-time queries that failed, by source (their labelled gauges are left out of that scrape)',
    labelNames: ['collector'] as const,
    registers: [registry],
  });
  const stopObserving = observeBatches(deps.database, (statement, size, durationMs) => {
    const writer = writerLabel(statement);
    batchSize.observe({ writer }, size);
    batchDuration.observe({ writer }, durationMs / 1000);
  });
  const refresh = collectors(deps, registry, (collector) => collectErrors.inc({ collector }));

  let processMetrics = false;
  return {
    registry,
    contentType: registry.contentType,
    observeRequest(method, route, status, seconds) {
      requestDuration.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },
    async scrape() {
      if (!processMetrics) {
        processMetrics = true;
        collectDefaultMetrics({ register: registry });
      }
      await refresh();
      return registry.metrics();
    },
    close: stopObserving,
  };
}
