import type { Database } from '../../db/client.ts';
import { type GroupCommit, type GroupCommitLimits, type GroupCommitStatement, groupCommit } from '../../ledger/group-commit.ts';

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
  /** A second factor was checked for this item (the step-up policy, decision 033). */
  stepped: boolean;
}

export interface BatchRow {
  b_i: number;
  /**
   * null: done; 'AUTH': no active session (or a disabled account); 'BUSY': see BUSY_STATE;
   * 'STEPUP': two-factor is on and no second factor was checked; 'HOLD': a security hold and an
   * amount above the currency's hold-free one; else the SQLSTATE that refused the item.
   */
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

/** coffer_transfer_batch() (drizzle/0022: set-based, decision 028) as a group-commit statement. */
export const TRANSFER_BATCH: GroupCommitStatement<BatchItem, BatchRow, BatchRow> = {
  name: 'coffer_transfer_batch_v3',
  sql: 'select * from coffer_transfer_batch($1, $2, $3, $4, $5::numeric[], $6, $7, $8, $9, $10)',
  params(items, wait) {
    const col = <K extends keyof BatchItem>(k: K) => items.map((item) => item[k]);
    return [
      col('tokenHash'),
      col('toUid'),
      col('toEmail'),
      col('currencyId'),
      col('amount'),
      col('memo'),
      col('key'),
      col('hash'),
      wait,
      col('stepped'),
    ];
  },
  state: (raw) => raw.b_state,
  row: (raw) => raw,
};

/**
 * The transfer writer of this process for a database (see ledger/group-commit.ts). The app
 * creates it at start with TRANSFER_BATCHES_IN_FLIGHT: a batch beside another one passes
 * p_wait false, so its items skip accounts the other holds (BUSY) instead of waiting.
 */
export function transferBatcher(database: Database, limits?: GroupCommitLimits): GroupCommit<BatchItem, BatchRow, BatchRow> {
  return groupCommit(database, TRANSFER_BATCH, limits);
}
