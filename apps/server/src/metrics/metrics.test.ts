import net from 'node:net';
import type { TransferResult } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createTestApp, type TestApp, testDbKind } from '../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../test/users.ts';
import { writerLabel } from './collectors.ts';
import { ADMIN_METRICS_PATH } from './plugin.ts';
import { createMetrics } from './registry.ts';

/** The value of one sample line (`name{labels} value`) of a scrape, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** A port free now, with the next one free too (a worker 2 listens on base + 1). */
async function freePort(): Promise<number> {
  const take = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = net.createServer().once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const taken = (server.address() as net.AddressInfo).port;
        server.close(() => resolve(taken));
      });
    });
  for (;;) {
    const base = await take(0);
    if (
      base < 65535 &&
      (await take(base + 1).then(
        () => true,
        () => false,
      ))
    )
      return base;
  }
}

describe('metrics', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let usdt: number;

  beforeAll(async () => {
    t = await createTestApp({ METRICS_PORT: '0' });
    call = client(t);
    operator = await createUser(t, { role: 'operator' });
    alice = await createUser(t);
    bob = await createUser(t);
    await fund(t, alice.uid, 'USDT', '10');
    const list = await call<{ id: number; code: string }[]>('GET', '/api/currency/list');
    usdt = list.data.find((c) => c.code === 'USDT')!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: ADMIN_METRICS_PATH, headers: { 'x-token': operator.token } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return res.body;
  };

  it('times requests by route pattern, counts group-commit batches, reads the pool', async () => {
    const sent = await call<TransferResult>('POST', '/api/transfer/transferByUID', {
      token: alice.token,
      body: { uid: bob.uid, currencyId: usdt, amount: '2.5' },
      key: `metrics-test-${Date.now()}`,
    });
    expect(sent.code).toBe(0);
    const details = await call('GET', `/api/transfer/details/${sent.data.id}`, { token: alice.token });
    expect(details.code).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/no-such-route/12345' })).statusCode).toBe(404);

    const text = await scrape();
    const transfer = { method: 'POST', route: '/api/transfer/transferByUID', status_class: '2xx' };
    expect(sample(text, 'coffer_http_request_duration_seconds_count', transfer)).toBe(1);
    expect(sample(text, 'coffer_http_request_duration_seconds_bucket', { ...transfer, le: '+Inf' })).toBe(1);
    expect(sample(text, 'coffer_http_request_duration_seconds_count', { route: '/api/transfer/details/:id' })).toBe(1);
    expect(sample(text, 'coffer_http_request_duration_seconds_count', { route: 'unmatched', status_class: '4xx' })).toBe(1);
    // Never the raw URL: no id, no unknown path becomes a label value.
    expect(text).not.toContain(`/api/transfer/details/${sent.data.id}`);
    expect(text).not.toContain('no-such-route');

    // The transfer went through the transfers writer: one batch of one item.
    expect(sample(text, 'coffer_group_commit_batch_size_count', { writer: 'transfers' })).toBe(1);
    expect(sample(text, 'coffer_group_commit_batch_size_sum', { writer: 'transfers' })).toBe(1);
    expect(sample(text, 'coffer_group_commit_batch_size_bucket', { writer: 'transfers', le: '1' })).toBe(1);
    expect(sample(text, 'coffer_group_commit_batch_duration_seconds_count', { writer: 'transfers' })).toBe(1);
    expect(sample(text, 'coffer_group_commit_queue_depth', { writer: 'transfers' })).toBe(0);
    expect(sample(text, 'coffer_group_commit_queue_depth', { writer: 'swaps' })).toBe(0);

    if (testDbKind === 'postgres') {
      const total = sample(text, 'coffer_db_pool_connections');
      expect(total).toBeGreaterThan(0);
      expect(sample(text, 'coffer_db_pool_idle_connections')).toBeLessThanOrEqual(total!);
      expect(sample(text, 'coffer_db_pool_waiting_requests')).toBe(0);
      expect(sample(text, 'coffer_db_pool_max_connections')).toBe(20);
      // The transfer's writer took a lane and gave it back once idle.
      const lanes = sample(text, 'coffer_db_lane_connections');
      expect(lanes).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'coffer_db_lane_idle_connections')).toBe(lanes);
      expect(sample(text, 'coffer_db_lane_waiting_writers')).toBe(0);
      expect(sample(text, 'coffer_db_lane_max_connections')).toBe(4);
    } else {
      // PGlite has no pool.
      expect(text).not.toContain('coffer_db_pool_');
    }
    // Process metrics (prom-client's defaults) and the audit gauge (no audit stored yet: absent).
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
    expect(sample(text, 'coffer_ledger_audit_last_failed')).toBe(0);
    expect(sample(text, 'coffer_ledger_audit_last_run_timestamp_seconds')).toBe(0);
    // No chain runs in this app: no chain gauges.
    expect(text).not.toContain('coffer_chain_watcher_lag_blocks');
    expect(text).not.toContain('coffer_withdrawals');
  });

  it('shows the last stored ledger audit', async () => {
    await t.database.sql.query(`insert into ledger_audit_runs (ok, summary, actor) values (false, '{}'::jsonb, 'test')`);
    const text = await scrape();
    expect(sample(text, 'coffer_ledger_audit_last_failed')).toBe(1);
    expect(sample(text, 'coffer_ledger_audit_last_run_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 60);
  });

  it('answers the admin path to operators only', async () => {
    const asUser = await t.app.inject({ method: 'GET', url: ADMIN_METRICS_PATH, headers: { 'x-token': alice.token } });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toMatchObject({ code: 4003, data: null });
    expect(asUser.body).not.toContain('coffer_');
    const anonymous = await t.app.inject({ method: 'GET', url: ADMIN_METRICS_PATH });
    expect(anonymous.json()).toMatchObject({ code: 2001, data: null });
  });

  it('serves /metrics on METRICS_PORT in the Prometheus text format, nothing else there', async () => {
    const address = t.app.metrics.address();
    expect(address?.address).toBe('127.0.0.1');
    const base = `http://127.0.0.1:${address!.port}`;
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE coffer_http_request_duration_seconds histogram');
    expect(sample(text, 'coffer_group_commit_batch_size_count', { writer: 'transfers' })).toBe(1);
    // The metrics port carries no API: other paths and methods answer the envelope.
    const other = await fetch(`${base}/api/health`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ code: 4004, data: null });
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('is off by default and validated like the other settings', async () => {
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    const plain = await createTestApp({}, { database: t.database });
    try {
      expect(plain.app.metrics.address()).toBeUndefined();
      // Each app has a registry of its own: the other app's transfer is not counted here.
      const res = await plain.app.inject({ method: 'GET', url: ADMIN_METRICS_PATH, headers: { 'x-token': operator.token } });
      expect(sample(res.body, 'coffer_http_request_duration_seconds_count', { route: '/api/transfer/transferByUID' })).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('gives each cluster worker a port of its own (METRICS_PORT + n - 1) and a worker label', async () => {
    const base = await freePort();
    const saved = process.env.COFFER_WORKER_ID;
    process.env.COFFER_WORKER_ID = '2';
    try {
      const worker = await createTestApp({ METRICS_PORT: String(base) }, { database: t.database });
      try {
        expect(worker.app.metrics.address()?.port).toBe(base + 1);
        const text = await (await fetch(`http://127.0.0.1:${base + 1}/metrics`)).text();
        expect(sample(text, 'coffer_group_commit_queue_depth', { writer: 'transfers', worker: '2' })).toBe(0);
      } finally {
        await worker.close();
      }
      // Closed with its app: the port is free again.
      await expect(fetch(`http://127.0.0.1:${base + 1}/metrics`)).rejects.toThrow();
    } finally {
      if (saved === undefined) delete process.env.COFFER_WORKER_ID;
      else process.env.COFFER_WORKER_ID = saved;
    }
  });

  it('reports chain lag and open withdrawals when a chain runs; a failing collector does not fail the scrape', async () => {
    const chainId = 99_001;
    let head: () => Promise<{ number: bigint }> = async () => ({ number: 130n });
    const metrics = createMetrics({
      config: t.config,
      database: t.database,
      chain: { lives: new Map([[chainId, { chainId, adapter: { head: () => head() } }]]) },
    });
    try {
      await t.database.sql.query(`insert into chain_cursors (chain_id, block_number, block_hash) values ($1, 100, '0xabc')`, [chainId]);
      const [network] = await t.database.sql.query<{ id: number; currency_id: number }>(
        'select id, currency_id from networks order by id limit 1',
      );
      await t.database.sql.query(
        `insert into withdrawals (user_id, network_id, currency_id, address, amount, fee, status, updated_at)
         values ($1, $2, $3, '0x0000000000000000000000000000000000000001', 1, 0, 'review', now() - interval '2 hours')`,
        [alice.uid, network!.id, network!.currency_id],
      );
      await t.database.sql.query(
        `insert into withdrawals (user_id, network_id, currency_id, address, amount, fee, status, wait_reason, wait_since)
         values ($1, $2, $3, '0x0000000000000000000000000000000000000001', 1, 0, 'queued', 'fees_high', now() - interval '10 minutes')`,
        [alice.uid, network!.id, network!.currency_id],
      );
      let text = await metrics.scrape();
      expect(sample(text, 'coffer_withdrawals_waiting', { reason: 'fees_high' })).toBe(1);
      expect(sample(text, 'coffer_withdrawals_waiting', { reason: 'hot_wallet_short' })).toBe(0);
      expect(sample(text, 'coffer_withdrawals_waiting_oldest_seconds', { reason: 'fees_high' })).toBeGreaterThanOrEqual(600);
      expect(sample(text, 'coffer_withdrawals_waiting_oldest_seconds', { reason: 'node_unavailable' })).toBeUndefined();
      expect(sample(text, 'coffer_chain_watcher_lag_blocks', { chain_id: String(chainId) })).toBe(30);
      expect(sample(text, 'coffer_chain_rpc_up', { chain_id: String(chainId) })).toBe(1);
      expect(sample(text, 'coffer_withdrawals', { state: 'review' })).toBe(1);
      expect(sample(text, 'coffer_withdrawals', { state: 'broadcast' })).toBe(0);
      expect(sample(text, 'coffer_withdrawals_oldest_age_seconds', { state: 'review' })).toBeGreaterThanOrEqual(7200);
      expect(sample(text, 'coffer_withdrawals_oldest_age_seconds', { state: 'confirming' })).toBeUndefined();

      head = () => Promise.reject(new Error('node down'));
      text = await metrics.scrape();
      expect(sample(text, 'coffer_chain_rpc_up', { chain_id: String(chainId) })).toBe(0);
      expect(sample(text, 'coffer_chain_watcher_lag_blocks', { chain_id: String(chainId) })).toBeUndefined();
      expect(sample(text, 'coffer_metrics_collect_errors_total', { collector: 'chain_lag' })).toBe(1);
      expect(sample(text, 'coffer_withdrawals', { state: 'review' })).toBe(1);
    } finally {
      metrics.close();
    }

    const broken = { ...t.database, sql: { query: () => Promise.reject(new Error('database gone')) } } as Database;
    const alone = createMetrics({ config: t.config, database: broken, chain: { lives: new Map() } });
    const text = await alone.scrape();
    expect(sample(text, 'coffer_metrics_collect_errors_total', { collector: 'ledger_audit' })).toBe(1);
    expect(sample(text, 'coffer_ledger_audit_last_failed')).toBe(0);
    alone.close();
  });

  it('names writers by what they write, not by statement version', () => {
    expect(writerLabel('coffer_transfer_batch_v2')).toBe('transfers');
    expect(writerLabel('coffer_swap_batch_v2')).toBe('swaps');
    expect(writerLabel('something_else')).toBe('something_else');
  });
});
