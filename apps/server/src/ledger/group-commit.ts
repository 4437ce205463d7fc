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
 * adds no latency. Up to `maxInFlight` batches run in parallel. A statement that fails as a
 * whole rejects every item of its batch.
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
      this.run(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async run(batch: Pending<Item, Result>[]) {
    const { name, sql } = this.statement;
    try {
      const rows = await this.database.sql.query<Raw>(
        sql,
        this.statement.params(batch.map((p) => p.item)),
        { name },
      );
      const byIndex = new Map(rows.map((r) => [Number(r.b_i), r]));
      batch.forEach((p, i) => {
        const row = byIndex.get(i + 1);
        if (!row) {
          p.reject(new Error(`${name} returned no row for item ${i + 1}`));
          return;
        }
        try {
          p.resolve(this.statement.row(row));
        } catch (e) {
          p.reject(e);
        }
      });
    } catch (e) {
      for (const p of batch) p.reject(e);
    }
  }
}

const writers = new WeakMap<Database, Map<string, GroupCommit<unknown, BatchedRow, unknown>>>();

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
