/**
 * The shapes and named limits of group commit (group-commit.ts): what a batch statement
 * returns, how the writer calls it, and the bounds of a writer's queue and batches.
 */

/** A row of a batch function: its item's position (1-based) first. */
export interface BatchedRow {
  b_i: number | string;
}

/**
 * A batch function of the ledger (coffer_transfer_batch, coffer_swap_batch): one statement
 * that takes every item's arguments as arrays and answers one row per item, tagged with `b_i`.
 */
export interface GroupCommitStatement<Item, Raw extends BatchedRow, Result> {
  /** Name of the prepared statement (change it with the SQL text). */
  name: string;
  sql: string;
  /**
   * The statement's parameters for these items: one array per argument, in item order. `wait[i]`
   * says whether item i may wait for locks another batch holds (see GroupCommitLimits.maxInFlight).
   */
  params(items: readonly Item[], wait: readonly boolean[]): unknown[];
  /** The SQLSTATE that refused the item (its row's b_state), null when it was done. */
  state(raw: Raw): string | null;
  /** The caller's answer from its item's row. */
  row(raw: Raw): Result;
}

/** The state of an item refused because another batch held one of its accounts (nothing was done). */
export const BUSY_STATE = 'BUSY';

/**
 * Items per statement. PostgreSQL caches 64 subtransactions per transaction; each item uses
 * one. The batch functions refuse more (CB900: `IF v_n > 50` in coffer_transfer_batch and
 * coffer_swap_batch, drizzle/0016); group-commit.test.ts reads that limit from the database
 * and checks it equals this one.
 */
export const MAX_BATCH_ITEMS = 50;

/**
 * Items a writer holds waiting for a batch (per statement and process); one more is refused
 * at once with 1002, before it reaches the database. 20 full batches: at a few milliseconds a
 * batch, the last one waits well under a second. A queue without a bound would only turn an
 * overload into unbounded memory and answers that come too late to matter.
 */
export const MAX_QUEUED_ITEMS = 1000;

/**
 * Deadlock (40P01) and serialization failure (40001): batches of two API processes may lock
 * crossing accounts or idempotency keys, and PostgreSQL breaks the tie by refusing one side; a
 * twin may take the key of a refused item before its refusal is kept. Running the item again is
 * right (it then lands, or hears the key's answer).
 */
export const RETRY_SQLSTATES: ReadonlySet<string> = new Set(['40P01', '40001']);

/** Runs of one item at most, the first included; after that the refusal is answered as it is. */
export const MAX_ATTEMPTS = 4;

/**
 * Batches a writer runs alone after a batch beside another came back with most of its items
 * BUSY: they share an account (a hot one, as when everyone pays one merchant), so a second batch
 * would only be turned away again, a wasted statement each time. After these it tries again.
 */
export const ALONE_AFTER_CONTENTION = 16;

/**
 * Batches in flight by default on a pipelined lane (PostgreSQL): the one the server is running
 * and the next, already there when it commits. Measured (decision 030, 2 cores, 16 clients):
 * transfers 4,800-4,950/s with one, 5,080-5,360/s with two.
 */
export const PIPELINE_DEPTH = 2;

export interface GroupCommitLimits {
  /**
   * Batches in flight (PGlite: always 1). On a database with lanes (PostgreSQL; default
   * PIPELINE_DEPTH) they are pipelined on one connection and run one after another, every item
   * waiting. Without lanes (default 1) they run side by side on pooled connections, which needs a
   * statement that honours `wait`: an item sent with wait false must not wait for another
   * batch's locks but answer BUSY_STATE at once, having done nothing; it is sent again with wait
   * true. So concurrent batches never queue behind each other on a lock (decision 028).
   */
  maxInFlight?: number;
  /** Items per statement (1..MAX_BATCH_ITEMS). */
  maxBatch?: number;
  /** Items waiting, beyond which submit answers 1002. */
  maxQueued?: number;
}
