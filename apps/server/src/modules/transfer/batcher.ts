import type { Database } from '../../db/client.ts';

/** One transfer as coffer_transfer_batch() takes it (arrays, one element per item). */
export interface BatchItem {
  tokenHash: string;
  toUid: number | null;
  toEmail: string | null;
  currencyId: number;
  amount: string;
  memo: string | null;
  key: string | null;
  hash: string | null;
}

export interface BatchRow {
  b_i: number;
  /** null: done; 'AUTH': no active session; else the SQLSTATE that refused the item. */
  b_state: string | null;
  t_id: number;
  t_entry: number;
  t_to: number;
  t_to_email: string;
  t_to_nickname: string;
  t_amount: string;
  t_memo: string | null;
  t_created: Date | string;
  t_replayed: boolean;
}

/** PostgreSQL caches 64 subtransactions per transaction; each item uses one. */
const MAX_BATCH = 50;
const BATCH_SQL = 'select * from coffer_transfer_batch($1, $2, $3, $4, $5::numeric[], $6, $7, $8)';

interface Pending {
  item: BatchItem;
  resolve: (row: BatchRow) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit for transfers: requests that arrive while a batch is in flight wait and go
 * together in the next statement (one transaction, one commit flush, one lock on a hot
 * account per batch). With nothing in flight a request goes at once, alone, so a quiet
 * server adds no latency. Up to `maxInFlight` batches run in parallel.
 */
export class TransferBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly database: Database,
    private readonly maxInFlight: number,
  ) {}

  submit(item: BatchItem): Promise<BatchRow> {
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
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      this.run(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async run(batch: Pending[]) {
    const col = <K extends keyof BatchItem>(k: K) => batch.map((p) => p.item[k]);
    try {
      const rows = await this.database.sql.query<BatchRow>(
        BATCH_SQL,
        [
          col('tokenHash'),
          col('toUid'),
          col('toEmail'),
          col('currencyId'),
          col('amount'),
          col('memo'),
          col('key'),
          col('hash'),
        ],
        { name: 'coffer_transfer_batch_v1' },
      );
      const byIndex = new Map(rows.map((r) => [Number(r.b_i), r]));
      batch.forEach((p, i) => {
        const row = byIndex.get(i + 1);
        if (row) p.resolve(row);
        else p.reject(new Error(`coffer_transfer_batch returned no row for item ${i + 1}`));
      });
    } catch (e) {
      for (const p of batch) p.reject(e);
    }
  }
}

const batchers = new WeakMap<Database, TransferBatcher>();

/**
 * One writer per process and database. Measured here (bench/ledger.mjs), one batch in flight
 * beat two or four on PostgreSQL too: parallel batches lock overlapping accounts and wait for
 * each other anyway, and every extra batch is an extra commit flush. While a batch runs, the
 * next one fills, so HTTP work and database work still overlap.
 */
export function transferBatcher(database: Database): TransferBatcher {
  let b = batchers.get(database);
  if (!b) {
    b = new TransferBatcher(database, 1);
    batchers.set(database, b);
  }
  return b;
}
