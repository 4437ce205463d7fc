import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { sendMailUrl } from '../modules/auth/test-helpers.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../test/harness.ts';

/**
 * Rate limits live in the database (table rate_limits), so every API process on one database
 * shares one count and a restart forgets nothing. Before, each process counted in its own
 * memory: two processes allowed twice the documented limit, and a restart reset it.
 */
describe('rate limits in the database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  const sendMail = async (t: TestApp, email: string, ip: string) => {
    const res = await t.app.inject({ method: 'GET', url: sendMailUrl(email, 'reset'), remoteAddress: ip });
    return { status: res.statusCode, code: (res.json() as { code: number }).code };
  };

  it('two app instances on one database share the count (sendMail: 10 a minute per IP)', async () => {
    const a = await createTestApp({}, { database });
    const b = await createTestApp({}, { database });
    try {
      const ip = '203.0.113.50';
      for (let i = 0; i < 10; i++) {
        expect(await sendMail(i % 2 ? b : a, `shared${i}@coffer.test`, ip)).toEqual({ status: 200, code: 0 });
      }
      // 5 on each instance: in-memory counters would let both go on to 10.
      expect(await sendMail(a, 'shared-a@coffer.test', ip)).toEqual({ status: 429, code: 1002 });
      expect(await sendMail(b, 'shared-b@coffer.test', ip)).toEqual({ status: 429, code: 1002 });
      expect(await sendMail(b, 'shared-c@coffer.test', '203.0.113.51')).toEqual({ status: 200, code: 0 });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a limit survives an app restart', async () => {
    const ip = '203.0.113.60';
    const first = await createTestApp({}, { database });
    try {
      for (let i = 0; i < 10; i++) expect((await sendMail(first, `restart${i}@coffer.test`, ip)).code).toBe(0);
    } finally {
      await first.close();
    }
    const second = await createTestApp({}, { database });
    try {
      expect(await sendMail(second, 'restart-last@coffer.test', ip)).toEqual({ status: 429, code: 1002 });
    } finally {
      await second.close();
    }
  });

  it('counts atomically: parallel hits on one key get every number once', async () => {
    const { hitRateLimit } = await import('./rate-limits.ts');
    const counts = await Promise.all(Array.from({ length: 40 }, () => hitRateLimit(database.sql, 'test:parallel', 60_000)));
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const c of counts) {
      expect(c.resetInMs).toBeGreaterThan(55_000);
      expect(c.resetInMs).toBeLessThanOrEqual(60_000);
    }
  });

  it('starts a new window once the old one is over, and the sweep deletes windows that are over', async () => {
    const { hitRateLimit, sweepRateLimits } = await import('./rate-limits.ts');
    await hitRateLimit(database.sql, 'test:old', 60_000);
    await hitRateLimit(database.sql, 'test:old', 60_000);
    await hitRateLimit(database.sql, 'test:live', 60_000);
    await database.sql.query(`update rate_limits set reset_at = now() - interval '1 second' where key = 'test:old'`);
    expect((await hitRateLimit(database.sql, 'test:old', 60_000)).count).toBe(1);

    await database.sql.query(`update rate_limits set reset_at = now() - interval '1 second' where key = 'test:old'`);
    const before = await database.sql.query<{ key: string }>(`select key from rate_limits where key like 'test:%'`);
    expect(before.map((r) => r.key).sort()).toEqual(['test:live', 'test:old', 'test:parallel']);
    expect(await sweepRateLimits(database.sql)).toBeGreaterThanOrEqual(1);
    const after = await database.sql.query<{ key: string }>(`select key from rate_limits where key like 'test:%'`);
    expect(after.map((r) => r.key).sort()).toEqual(['test:live', 'test:parallel']);
  });
});
