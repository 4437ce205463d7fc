import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createMetrics } from '../metrics/registry.ts';
import { createTestDatabase } from '../test/harness.ts';
import { waitFor } from '../test/wait.ts';
import { LOOP_BACKOFF_MAX_MS, LoopHealth } from './loop-health.ts';
import { startChain } from './runtime.ts';

describe('LoopHealth (pure, over a clock passed in)', () => {
  it('backs off by doubling from the poll interval to LOOP_BACKOFF_MAX_MS, reports each change of state once, resets on success', () => {
    let now = 1_000;
    const h = new LoopHealth(() => now, 1_000);
    expect(h.nextDelayMs()).toBe(1_000);
    expect(h.record(null)).toBeNull(); // healthy -> healthy: nothing to say
    now = 5_000;
    expect(h.record('sender: fetch failed')).toMatchObject({ healthy: false, failures: 1, since: 5_000 });
    const delays = [h.nextDelayMs()];
    for (let i = 0; i < 10; i++) {
      expect(h.record('sender: fetch failed')).toBeNull(); // the same failure again: not logged again
      delays.push(h.nextDelayMs());
    }
    expect(delays.slice(0, 6)).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, LOOP_BACKOFF_MAX_MS]);
    expect(Math.max(...delays)).toBe(LOOP_BACKOFF_MAX_MS);
    expect(h.record('watcher: other')).toMatchObject({ healthy: false, since: 5_000 }); // another error: said once
    now = 90_000;
    expect(h.record(null)).toMatchObject({ healthy: true, failures: 0, since: 90_000 });
    expect(h.nextDelayMs()).toBe(1_000);
  });
});

describe('the chain loop while the RPC node is down (the embedded anvil, stopped)', () => {
  let database: Database;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-loop-'));
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('backs off, logs the failure once (not once a tick), stores unhealthy for the metrics and dashboard', async () => {
    const errors: string[] = [];
    const log = {
      info() {},
      warn: (_o: object, m?: string) => errors.push(`warn ${m}`),
      error: (_o: object, m?: string) => errors.push(`error ${m}`),
    };
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      CHAIN_POLL_INTERVAL_MS: '100',
    });
    const chain = await startChain({ config, database, log, workers: () => [] });
    try {
      await chain.live!.local!.stop(); // the embedded node goes down
      await waitFor(() => (chain.live?.health().failures ?? 0) >= 4, 'four failed ticks', { everyMs: 100 });
      const health = chain.live!.health();
      expect(health.healthy).toBe(false);
      expect(health.failures).toBeGreaterThanOrEqual(4);
      expect(health.nextDelayMs).toBeGreaterThanOrEqual(1_600);
      // 4+ failed ticks, one log line for the worker and one for the loop's change of state
      expect(errors.filter((e) => e.startsWith('error chain worker failed')).length).toBe(1);
      expect(errors.filter((e) => e.startsWith('warn chain loop unhealthy')).length).toBe(1);
      const [row] = await database.sql.query<{ healthy: boolean }>('select healthy from chain_rpc_health where chain_id = 31337');
      expect(row?.healthy).toBe(false);
      const metrics = createMetrics({ config, database, chain });
      try {
        expect(await metrics.scrape()).toMatch(/coffer_chain_loop_healthy\{chain_id="31337"\} 0/);
      } finally {
        metrics.close();
      }
    } finally {
      await chain.stop();
    }
  });
});
