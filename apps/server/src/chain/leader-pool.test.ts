import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../db/client.ts';
import { testDbKind } from '../test/harness.ts';
import { takeLeadership } from './leader.ts';

/**
 * A process that is not the leader tries again every tick (CHAIN_POLL_INTERVAL_MS) with a
 * connection of the shared pool, and gives it back: nothing of the try may stay on that
 * pooled connection (PostgreSQL only: PGlite has no pool).
 */
describe.runIf(testDbKind === 'postgres')('chain leadership tries on pooled connections', () => {
  let database: Database;
  // A pool of two: one connection held by the leader, the other used by every failed try.
  beforeAll(async () => {
    database = await openPostgres(process.env.TEST_DATABASE_URL as string, 2);
  });
  afterAll(() => database?.close());

  const within = <T>(p: Promise<T>, ms: number, what: string) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms))]);
  const pooled = () => within((database.dedicated as NonNullable<Database['dedicated']>)(), 3000, 'pool connection');

  it('leaves no listener behind on the pooled connection', async () => {
    const key = 4312000 + Math.floor(Math.random() * 1000);
    const lead = await takeLeadership(database, key);
    expect(lead).not.toBeNull();
    for (let i = 0; i < 30; i++) expect(await takeLeadership(database, key)).toBeNull();
    const other = await pooled();
    const listeners = (other as unknown as { listenerCount(e: string): number }).listenerCount('error');
    other.release();
    await lead?.release();
    expect(listeners).toBe(0);
  });

  it('a pooled connection that dies later, after a failed try used it, is not released a second time', async () => {
    const key = 4313000 + Math.floor(Math.random() * 1000);
    const lead = await takeLeadership(database, key);
    expect(await takeLeadership(database, key)).toBeNull();
    // The failed try's connection is now idle in the pool. Another user takes it and, while it
    // is theirs, the connection dies: only its holder may give it back.
    const other = await pooled();
    const thrown: unknown[] = [];
    const onUncaught = (e: unknown) => thrown.push(e);
    process.on('uncaughtException', onUncaught);
    let releasedUnderUs = false;
    const realRelease = other.release.bind(other);
    other.release = (destroy?: boolean | Error) => {
      releasedUnderUs = true;
      realRelease(destroy);
    };
    // The connection's death reaches its holder as an 'error' event: the outcome waited for.
    const died = new Promise<void>((resolve) => other.on('error', () => resolve()));
    try {
      const [{ pid }] = (await other.query('select pg_backend_pid() as pid')).rows as [{ pid: number }];
      const killer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await killer.connect();
      await killer.query('select pg_terminate_backend($1)', [pid]);
      await killer.end();
      await within(died, 5000, 'the connection to die');
      // Whatever the pool does on that event runs in the same turn or the next one.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(thrown).toEqual([]);
    expect(releasedUnderUs).toBe(false);
    realRelease(true);
    await lead?.release();
  });
});
