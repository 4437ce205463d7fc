import type { Database } from '../db/client.ts';

/** A row of a batch function: its item's position (1-based) first. */
export interface BatchedRow {
  b_i: number | string;
}

/**
 * A batch function of the ledger (coffer_transfer_batch, coffer_swap_batch): one statement
 * that takes every item's arguments as arrays, runs each item in its own subtransaction and
 * answers one row per item, tagged with `b_i`.
 */
export interface GroupCommitStatement<Item, Raw extends BatchedRow, Result> {
  /** Name of the prepared statement (change it with the SQL text). */
  name: string;
  sql: string;
  /** The statement's parameters for these items: one array per argument, in item order. */
  params(items: readonly Item[]): unknown[];
  /** The caller's answer from its item's row. */
  row(raw: Raw): Result;
}

/** PostgreSQL caches 64 subtransactions per transaction; each item uses one. */
export const MAX_BATCH = 50;

interface Pending<Item, Result> {
  item: Item;
  resolve: (row: Result) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit (decisions 007, 008): requests that arrive while a batch is in flight wait and
 * go together in the next statement (one transaction, one commit flush, one lock on a hot
 * account per batch). With nothing in flight a request goes at once, alone, so a quiet server
 * adds no latency. Up to `maxInFlight` batches run in parallel.
 *
 * A statement that fails as a whole (one item's argument refused by the database, e.g. a NUL
 * in a text, before any item ran) runs its items again one at a time, so that one bad item
 * fails alone and the others still land: see `run`.
 */
export class GroupCommit<Item, Raw extends BatchedRow, Result> {
  private queue: Pending<Item, Result>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly database: Database,
    private readonly statement: GroupCommitStatement<Item, Raw, Result>,
    private readonly maxInFlight = 1,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  /** Items waiting for a batch (metrics: queue depth). */
  get queued(): number {
    return this.queue.length;
  }

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Collects on the next turn of the event loop, so that requests parsed in the same turn
   * share a batch (PGlite runs a statement without yielding, so nothing would queue behind
   * it otherwise). Costs one turn of latency, no timer.
   */
  private schedule() {
    if (this.scheduled || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump() {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      const started = performance.now();
      this.run(batch).finally(() => {
        observed(this.database, this.statement.name, batch.length, performance.now() - started);
        this.inFlight--;
        this.schedule();
      });
    }
  }

  /**
   * Runs one batch. The happy path is one statement. When the statement fails as a whole and
   * the database said so (the error carries a SQLSTATE), every item runs again on its own, one
   * after another, each as a batch of one: the bad item fails alone, the others land.
   *
   * Running an item again cannot apply it twice. The statement runs in its own implicit
   * transaction (autocommit, no BEGIN around it), and a statement the database answers with an
   * error is rolled back whole, every item's subtransaction included: nothing of the batch was
   * committed. An error without a SQLSTATE (connection lost, timeout on our side) leaves the
   * outcome unknown, as the commit may have happened before the answer was lost; such a batch
   * is not run again, its items fail (an item with an Idempotency-Key may be sent again safely).
   */
  private async run(batch: Pending<Item, Result>[]) {
    try {
      this.settle(batch, await this.execute(batch));
    } catch (e) {
      if (batch.length === 1 || !refusedByDatabase(e)) {
        for (const p of batch) p.reject(e);
        return;
      }
      for (const p of batch) {
        try {
          this.settle([p], await this.execute([p]));
        } catch (single) {
          p.reject(single);
        }
      }
    }
  }

  private execute(batch: Pending<Item, Result>[]): Promise<Raw[]> {
    const { name, sql } = this.statement;
    return this.database.sql.query<Raw>(sql, this.statement.params(batch.map((p) => p.item)), { name });
  }

  /** Answers each item of a batch from its row (tagged b_i, 1-based within the batch). */
  private settle(batch: Pending<Item, Result>[], rows: Raw[]) {
    const byIndex = new Map(rows.map((r) => [Number(r.b_i), r]));
    batch.forEach((p, i) => {
      const row = byIndex.get(i + 1);
      if (!row) {
        p.reject(new Error(`${this.statement.name} returned no row for item ${i + 1}`));
        return;
      }
      try {
        p.resolve(this.statement.row(row));
      } catch (e) {
        p.reject(e);
      }
    });
  }
}

/**
 * The database answered the statement with an error (an ErrorResponse: SQLSTATE and severity),
 * as opposed to the connection failing (Node's EPIPE, ECONNRESET: no severity) where the
 * outcome is unknown.
 */
function refusedByDatabase(e: unknown): boolean {
  const err = e as { code?: unknown; severity?: unknown } | null;
  return typeof err?.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) && typeof err.severity === 'string';
}

const writers = new WeakMap<Database, Map<string, GroupCommit<unknown, BatchedRow, unknown>>>();

/** Sees every batch a writer ran (metrics/): its statement's name, its items, its milliseconds. */
export type BatchObserver = (statement: string, size: number, durationMs: number) => void;
const observers = new WeakMap<Database, Set<BatchObserver>>();

/** Calls `observer` after each batch of every writer of `database`; answers the unsubscribe. */
export function observeBatches(database: Database, observer: BatchObserver): () => void {
  const set = observers.get(database) ?? new Set<BatchObserver>();
  observers.set(database, set);
  set.add(observer);
  return () => set.delete(observer);
}

/** The writers of `database` created so far, by statement name (metrics: queue depth). */
export function writersOf(database: Database): ReadonlyMap<string, { readonly queued: number }> {
  return writers.get(database) ?? new Map();
}

function observed(database: Database, statement: string, size: number, durationMs: number) {
  for (const observer of observers.get(database) ?? []) {
    try {
      observer(statement, size, durationMs);
    } catch {
      // An observer's failure must not reach the writer's callers.
    }
  }
}

/**
 * The writer of a statement for a database: one per process, statement and database, with
 * one batch in flight. Measured (bench/ledger.mjs), one batch in flight beat two or four on
 * PostgreSQL too: parallel batches lock overlapping accounts and wait for each other anyway,
 * and every extra batch is an extra commit flush. While a batch runs the next one fills, so
 * HTTP work and database work still overlap. Transfers and swaps have a writer each, so a
 * transfer batch and a swap batch may run together; both lock their accounts in id order.
 */
export function groupCommit<Item, Raw extends BatchedRow, Result>(
  database: Database,
  statement: GroupCommitStatement<Item, Raw, Result>,
): GroupCommit<Item, Raw, Result> {
  let byName = writers.get(database);
  if (!byName) {
    byName = new Map();
    writers.set(database, byName);
  }
  let writer = byName.get(statement.name) as GroupCommit<Item, Raw, Result> | undefined;
  if (!writer) {
    writer = new GroupCommit(database, statement);
    byName.set(statement.name, writer as unknown as GroupCommit<unknown, BatchedRow, unknown>);
  }
  return writer;
}
