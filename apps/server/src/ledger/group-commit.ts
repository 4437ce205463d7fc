import { ErrorCode } from '@coffer/contract';
import { BizError } from '../core/errors.ts';
import type { Database, SqlLane } from '../db/client.ts';
import {
  ALONE_AFTER_CONTENTION,
  type BatchedRow,
  BUSY_STATE,
  type GroupCommitLimits,
  type GroupCommitStatement,
  MAX_ATTEMPTS,
  MAX_BATCH_ITEMS,
  MAX_QUEUED_ITEMS,
  PIPELINE_DEPTH,
  RETRY_SQLSTATES,
} from './group-commit-limits.ts';
import { sqlState } from './sql-errors.ts';

export * from './group-commit-limits.ts';

interface Pending<Item, Result> {
  item: Item;
  resolve: (row: Result) => void;
  reject: (e: unknown) => void;
  /** Statements this item has been sent in so far. */
  attempts: number;
  /** Sent again after BUSY_STATE: it waits for the locks this time. */
  wait: boolean;
}

/**
 * Group commit (decisions 007, 008): requests that arrive while a batch is in flight wait and
 * go together in the next statement (one transaction, one commit flush, one lock on a hot
 * account per batch). With nothing in flight a request goes at once, alone, so a quiet server
 * adds no latency. Up to `maxInFlight` batches are in flight: on PostgreSQL pipelined on the
 * writer's one held connection, one after another (decision 030); elsewhere side by side.
 *
 * A statement that fails as a whole (one item's argument refused by the database, e.g. a NUL
 * in a text, before any item ran) runs its items again one at a time, so that one bad item
 * fails alone and the others still land: see `run`.
 *
 * The retry policy lives here, once: an item refused with a deadlock or a serialization
 * failure (its row's state, or the whole statement's error) goes back to the head of the
 * queue, up to MAX_ATTEMPTS runs. The queue is bounded (MAX_QUEUED_ITEMS): when full, submit
 * refuses with 1002 and nothing of that item is sent.
 */
export class GroupCommit<Item, Raw extends BatchedRow, Result> {
  private queue: Pending<Item, Result>[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Batches still to run alone (ALONE_AFTER_CONTENTION). */
  private aloneFor = 0;
  /**
   * The writer's pipelined connection while batches follow one another (SqlClient.lane), shared
   * by every batch in flight: they run on the server one after another, each starting as the
   * one before commits. Undefined while idle, and on a database without lanes.
   */
  private lane: { ready: Promise<SqlLane | undefined>; held?: SqlLane } | undefined;
  /** Batches run one after another on one connection (a lane): they never wait on each other's locks. */
  private readonly pipelined: boolean;

  private readonly maxInFlight: number;
  private readonly maxBatch: number;
  private readonly maxQueued: number;

  constructor(
    private readonly database: Database,
    private readonly statement: GroupCommitStatement<Item, Raw, Result>,
    limits: GroupCommitLimits = {},
  ) {
    // PGlite runs one statement at a time: a second batch would only wait in its queue, smaller.
    this.pipelined = database.kind === 'postgres' && typeof database.sql.lane === 'function';
    const wanted = limits.maxInFlight ?? (this.pipelined ? PIPELINE_DEPTH : 1);
    this.maxInFlight = database.kind === 'postgres' ? wanted : 1;
    this.maxBatch = limits.maxBatch ?? MAX_BATCH_ITEMS;
    this.maxQueued = limits.maxQueued ?? MAX_QUEUED_ITEMS;
    if (this.maxBatch < 1 || this.maxBatch > MAX_BATCH_ITEMS) throw new Error(`maxBatch must be 1..${MAX_BATCH_ITEMS}`);
  }

  /** Items waiting for a batch (metrics: queue depth). */
  get queued(): number {
    return this.queue.length;
  }

  /** The item's answer; 1002 at once when MAX_QUEUED_ITEMS wait already (the item is not sent). */
  submit(item: Item): Promise<Result> {
    if (this.queue.length >= this.maxQueued) return Promise.reject(new BizError(ErrorCode.TOO_MANY_REQUESTS));
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject, attempts: 0, wait: false });
      this.schedule();
    });
  }

  /** Back to the head of the queue (admitted once, so not counted against the bound). */
  private again(pending: Pending<Item, Result>[]) {
    this.queue.unshift(...pending);
    this.schedule();
  }

  /** Whether an item refused with this SQLSTATE runs again. */
  private retries(p: Pending<Item, Result>, state: string | null | undefined): boolean {
    return state != null && RETRY_SQLSTATES.has(state) && p.attempts < MAX_ATTEMPTS;
  }

  /**
   * Collects on the next turn of the event loop, so that requests parsed in the same turn
   * share a batch (PGlite runs a statement without yielding, so nothing would queue behind
   * it otherwise). Costs one turn of latency, no timer.
   */
  private schedule() {
    if (this.scheduled || this.inFlight >= this.limit()) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** Batches that may run now: maxInFlight, or one while contention was seen lately. */
  private limit(): number {
    return this.aloneFor > 0 ? 1 : this.maxInFlight;
  }

  private pump() {
    while (this.inFlight < this.limit() && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      const alone = this.inFlight === 0;
      if (alone && this.aloneFor > 0) this.aloneFor--;
      const wait = batch.map((p) => this.pipelined || alone || p.wait);
      this.inFlight++;
      void this.run(batch, wait, performance.now());
    }
  }

  /**
   * A batch is done: the next one goes out now, on the same lane, before this one's answers
   * are written (their writes and the next requests' parsing then overlap the database's work
   * on it instead of leaving it idle; decision 030). Without a lane (PGlite, which runs a
   * statement on this thread; or a SqlClient without lanes) the next turn collects it.
   */
  private finish(size: number, started: number) {
    observed(this.database, this.statement.name, size, performance.now() - started);
    this.inFlight--;
    if (this.queue.length > 0) {
      if (this.pipelined) this.pump();
      else this.schedule();
      return;
    }
    // Nothing waits: the connection goes back to the pool (an idle writer holds none).
    if (this.inFlight === 0 && this.lane) {
      const slot = this.lane;
      this.lane = undefined;
      void slot.ready.then((lane) => lane?.release());
    }
  }

  /** The lane for a batch: the one in use, or a new one (undefined: no lanes, use the pool). */
  private laneNow(): Promise<SqlLane | undefined> | SqlLane | undefined {
    if (!this.pipelined) return undefined;
    if (!this.lane) {
      const slot: { ready: Promise<SqlLane | undefined>; held?: SqlLane } = { ready: Promise.resolve(undefined) };
      // No connection to be had: this batch goes through the pool, which says why it failed.
      slot.ready = this.database.sql.lane!().then(
        (lane) => (slot.held = lane),
        () => {
          if (this.lane === slot) this.lane = undefined;
          return undefined;
        },
      );
      this.lane = slot;
    }
    return this.lane.held ?? this.lane.ready;
  }

  /** A lane that failed (connection lost): closed, and the next batch opens another. */
  private drop(lane: SqlLane | undefined, error: unknown) {
    if (!lane) return;
    if (this.lane?.held === lane) this.lane = undefined;
    lane.release(error instanceof Error ? error : new Error(String(error)));
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
  private async run(batch: Pending<Item, Result>[], wait: boolean[], started: number) {
    let lane: SqlLane | undefined;
    let rows: Raw[];
    try {
      // No await once the lane is open: the statement is written in this call (see finish).
      const now = this.laneNow();
      lane = now instanceof Promise ? await now : now;
      rows = await this.execute(batch, wait, lane);
    } catch (e) {
      await this.recover(batch, wait, e, lane);
      this.finish(batch.length, started);
      return;
    }
    this.finish(batch.length, started);
    this.settle(batch, rows, wait);
  }

  /** After a batch failed as a whole: see `run`. */
  private async recover(batch: Pending<Item, Result>[], wait: boolean[], e: unknown, held: SqlLane | undefined) {
    let lane = held;
    const drop = (error: unknown) => {
      this.drop(lane, error);
      lane = undefined;
    };
    if (refusedByDatabase(e) && RETRY_SQLSTATES.has(sqlState(e) ?? '')) {
      const state = sqlState(e);
      this.again(batch.filter((p) => this.retries(p, state)));
      for (const p of batch) if (!this.retries(p, state)) p.reject(e);
      return;
    }
    if (!refusedByDatabase(e)) drop(e);
    if (batch.length === 1 || !refusedByDatabase(e)) {
      for (const p of batch) p.reject(e);
      return;
    }
    for (const [i, p] of batch.entries()) {
      try {
        this.settle([p], await this.execute([p], [wait[i]!], lane), [wait[i]!]);
      } catch (single) {
        if (!refusedByDatabase(single)) drop(single);
        if (refusedByDatabase(single) && this.retries(p, sqlState(single))) this.again([p]);
        else p.reject(single);
      }
    }
  }

  private execute(batch: Pending<Item, Result>[], wait: boolean[], lane: SqlLane | undefined): Promise<Raw[]> {
    for (const p of batch) p.attempts++;
    const { name, sql } = this.statement;
    const params = this.statement.params(
      batch.map((p) => p.item),
      wait,
    );
    return (lane ?? this.database.sql).query<Raw>(sql, params, { name });
  }

  /**
   * Answers each item of a batch from its row (tagged b_i, 1-based within the batch); an item
   * refused with a deadlock or serialization failure is queued again instead (MAX_ATTEMPTS).
   */
  private settle(batch: Pending<Item, Result>[], rows: Raw[], wait: boolean[]) {
    const byIndex = new Map(rows.map((r) => [Number(r.b_i), r]));
    const again: Pending<Item, Result>[] = [];
    let busy = 0;
    batch.forEach((p, i) => {
      const row = byIndex.get(i + 1);
      if (!row) {
        p.reject(new Error(`${this.statement.name} returned no row for item ${i + 1}`));
        return;
      }
      try {
        const state = this.statement.state(row);
        if (state === BUSY_STATE) {
          // Invariant: only an item that was told not to wait is turned away.
          if (wait[i]) throw new Error(`${this.statement.name} answered ${BUSY_STATE} for an item that waits`);
          p.wait = true;
          p.attempts--;
          busy++;
          again.push(p);
        } else if (this.retries(p, state)) again.push(p);
        else p.resolve(this.statement.row(row));
      } catch (e) {
        p.reject(e);
      }
    });
    if (busy * 2 > batch.length) this.aloneFor = ALONE_AFTER_CONTENTION;
    if (again.length) this.again(again);
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
 * `limits.maxInFlight` batches in flight (default PIPELINE_DEPTH with lanes, else 1). On a lane
 * they run one after another, so they never wait on each other's locks (decision 030); side by
 * side they would (decision 008), so there a statement runs more than one only when its items
 * never wait for a sibling batch (BUSY_STATE, decision 028). Transfers and swaps have a writer
 * each, so a transfer batch and a swap batch may run together; both lock accounts in id order.
 */
export function groupCommit<Item, Raw extends BatchedRow, Result>(
  database: Database,
  statement: GroupCommitStatement<Item, Raw, Result>,
  /** Applied when this call creates the writer (the app creates it at start, from its configuration). */
  limits: GroupCommitLimits = {},
): GroupCommit<Item, Raw, Result> {
  let byName = writers.get(database);
  if (!byName) {
    byName = new Map();
    writers.set(database, byName);
  }
  let writer = byName.get(statement.name) as GroupCommit<Item, Raw, Result> | undefined;
  if (!writer) {
    writer = new GroupCommit(database, statement, limits);
    byName.set(statement.name, writer as unknown as GroupCommit<unknown, BatchedRow, unknown>);
  }
  return writer;
}
