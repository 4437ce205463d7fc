import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, type ErrorCodeValue, pickLocale } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { messageFor } from '../core/locale.ts';
import { createMetrics, type Metrics, UNMATCHED_ROUTE } from './registry.ts';

/** Where the operator reads the metrics on the main port (text, not the envelope: see decision 024). */
export const ADMIN_METRICS_PATH = '/api/admin/metrics';
/** The only path of the metrics port. */
export const METRICS_PATH = '/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's metrics (metrics/); `address()` is the metrics port's, when one listens. */
    metrics: Metrics & { address(): AddressInfo | undefined };
  }
}

/**
 * Prometheus metrics (docs/decisions/024-metrics.md): every request is timed by its route
 * pattern; operators read the metrics at ADMIN_METRICS_PATH; with METRICS_PORT set, a plain
 * HTTP server of its own serves them at /metrics on HOST, for a scraper that holds no session.
 * Called on the root instance before the routes are registered, so the hook sees them all.
 */
export function installMetrics(app: FastifyInstance) {
  const { config } = app.deps;
  // A cluster worker (COFFER_WORKER_ID, set by cluster/primary.ts) is a target of its own.
  const workerId = Number(process.env.COFFER_WORKER_ID) || undefined;
  const metrics = createMetrics(app.deps, workerId ? { defaultLabels: { worker: String(workerId) } } : {});
  let server: http.Server | undefined;
  app.decorate('metrics', {
    ...metrics,
    address: () => (server?.address() as AddressInfo | null) ?? undefined,
  });

  app.addHook('onResponse', async (request, reply) => {
    // The pattern (/api/transfer/details/:id), never the URL: ids would make a series each.
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get(ADMIN_METRICS_PATH, { schema: { hide: true }, preHandler: app.requireOperator }, async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .type(metrics.contentType)
      .send(await metrics.scrape()),
  );

  app.addHook('onReady', async () => {
    if (config.METRICS_PORT === undefined) return;
    // Worker n of a cluster listens on METRICS_PORT + n - 1 (0 stays "any free port").
    const port = config.METRICS_PORT === 0 ? 0 : config.METRICS_PORT + (workerId ?? 1) - 1;
    if (port !== 0 && port === config.PORT)
      throw new Error(`METRICS_PORT ${port} is the API port (PORT); give metrics a port of their own`);
    server = await listen(metrics, port, config.HOST);
  });
  app.addHook('onClose', async () => {
    metrics.close();
    if (!server) return;
    const closing = server;
    server = undefined;
    await new Promise<void>((resolve) => {
      closing.close(() => resolve());
      closing.closeAllConnections();
    });
  });
}

/** The metrics port: GET /metrics answers the text exposition; anything else the envelope. */
async function listen(metrics: Metrics, port: number, host: string): Promise<http.Server> {
  const server = http.createServer(async (request, response) => {
    const locale = pickLocale(request.headers['accept-language']);
    const fail = (status: number, code: ErrorCodeValue, detail?: string) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff' });
      response.end(JSON.stringify({ code, message: messageFor(code, locale, detail), data: null }));
    };
    const pathname = (request.url ?? '').split('?')[0];
    if (pathname !== METRICS_PATH) return fail(404, ErrorCode.NOT_FOUND);
    if (request.method !== 'GET' && request.method !== 'HEAD') return fail(405, ErrorCode.INVALID_PARAMS, 'method');
    try {
      const text = await metrics.scrape();
      response.writeHead(200, {
        'content-type': metrics.contentType,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      response.end(request.method === 'HEAD' ? undefined : text);
    } catch {
      fail(500, ErrorCode.INTERNAL);
    }
  });
  // A cluster worker binds a port of its own (no handle shared through the primary).
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
