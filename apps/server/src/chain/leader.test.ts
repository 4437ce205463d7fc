import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { createTestDatabase, testDbKind } from '../test/harness.ts';
import { waitFor } from '../test/wait.ts';
import { takeLeadership } from './leader.ts';

describe('chain leadership', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it.runIf(testDbKind === 'postgres')('one leader per database on PostgreSQL; the next takes over on release', async () => {
    const first = await takeLeadership(database, 4242);
    expect(first?.held()).toBe(true);
    expect(await takeLeadership(database, 4242)).toBeNull();
    // Another key (another singleton) is independent.
    const other = await takeLeadership(database, 4243);
    expect(other).not.toBeNull();
    await other?.release();
    await first?.release();
    expect(first?.held()).toBe(false);
    const second = await takeLeadership(database, 4242);
    expect(second?.held()).toBe(true);
    await second?.release();
  });

  it.runIf(testDbKind === 'postgres')('a leader whose connection dies loses the lock to the next', async () => {
    const first = await takeLeadership(database, 4244);
    expect(first).not.toBeNull();
    // Kill the leader's backend from outside, as a crash or a network cut would.
    await database.sql.query(`select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = 4244 and granted`);
    await waitFor(() => first?.held() === false, 'the first leader to see its connection gone');
    const next = await takeLeadership(database, 4244);
    expect(next?.held()).toBe(true);
    await next?.release();
  });

  it.runIf(testDbKind === 'pglite')('PGlite serves one process, which always leads', async () => {
    const a = await takeLeadership(database, 4242);
    const b = await takeLeadership(database, 4242);
    expect(a?.held() && b?.held()).toBe(true);
  });
});
