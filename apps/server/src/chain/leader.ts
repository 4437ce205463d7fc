import type { Database } from '../db/client.ts';

/** The right to run singleton chain work (watcher, sender), held until released or lost. */
export interface Leadership {
  /** false once the connection holding the lock has died: stop and try to take it again. */
  held(): boolean;
  release(): Promise<void>;
}

/**
 * One leader per database (docs/product.md §11): on PostgreSQL a session advisory lock held on a
 * connection of its own, so several API processes may run and exactly one of them works the
 * chain; if it dies, its connection closes, the lock goes, and another process takes over on
 * its next try. PGlite serves a single process (DATA_DIR is locked), which always leads.
 * A tick already running when the lock is lost finishes: each of its steps is safe to run
 * twice (idempotent SQL, rows taken with FOR UPDATE SKIP LOCKED and states re-checked).
 * Answers null when another process leads.
 */
export async function takeLeadership(database: Database, key: number): Promise<Leadership | null> {
  if (!database.dedicated) {
    return { held: () => true, release: async () => {} };
  }
  const client = await database.dedicated();
  let alive = true;
  // Only while this try or leadership holds the client: once given back, the pool (and
  // whoever takes the client next) owns its errors and its release.
  let given = false;
  const giveBack = (destroy?: boolean | Error) => {
    if (given) return;
    given = true;
    client.off('error', onError);
    client.release(destroy);
  };
  const onError = (e: Error) => {
    // The connection died, and the lock with it: give the broken client back to be destroyed.
    if (!alive) return;
    alive = false;
    giveBack(e);
  };
  client.on('error', onError);
  try {
    const { rows } = await client.query('select pg_try_advisory_lock($1) as ok', [key]);
    if (!rows[0]?.ok) {
      giveBack();
      return null;
    }
  } catch (e) {
    giveBack(true);
    throw e;
  }
  return {
    held: () => alive,
    async release() {
      if (!alive) return;
      alive = false;
      await client.query('select pg_advisory_unlock($1)', [key]).catch(() => {});
      giveBack();
    },
  };
}
