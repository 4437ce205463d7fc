import type { GroupCommitStatement } from '../../ledger/group-commit.ts';
import type { SwapPrice } from './pricing.ts';

/**
 * One swap as coffer_swap_batch() takes it (one array per field): the caller's session token
 * hash, which the batch resolves to its user (no session lookup of its own per request).
 */
export interface SwapItem {
  tokenHash: string;
  key: string | null;
  hash: string;
  quoteId: number | null;
  price: SwapPrice;
  fromCurrencyId: number;
  toCurrencyId: number;
  /** The signature of the pair the price was made from, checked by the batch ('PAIR'); null: not checked. */
  pairSignature: string | null;
  /** A second factor was checked for this item (the step-up policy, decision 033). */
  stepped: boolean;
}

interface SwapBatchRow {
  b_i: number;
  /**
   * null: done (the rest filled as coffer_swap_apply answers); 'AUTH': no session (or the
   * account is disabled); 'STEPUP': the user opted in to a second factor on swaps and none was
   * checked (decision 033); 'PAIR': priced from a pair that has changed since (nothing written);
   * else the SQLSTATE that refused the item.
   */
  b_state: string | null;
  /** The session's user (null with 'AUTH'). */
  b_user: number | string | null;
  swap_id: number | string | null;
  replayed: boolean | null;
  key_conflict: boolean | null;
  /** A new swap's journal entry and creation time (null on a replay). */
  s_entry: number | string | null;
  s_created: Date | string | null;
}

export interface SwapOutcome {
  state: string | null;
  userId: number | null;
  swapId: number | null;
  replayed: boolean;
  keyConflict: boolean;
  entryId: number | null;
  createdAt: Date | string | null;
}

/** coffer_swap_batch() (drizzle/0023) as a group-commit statement (ledger/group-commit.ts). */
export const SWAP_BATCH: GroupCommitStatement<SwapItem, SwapBatchRow, SwapOutcome> = {
  name: 'coffer_swap_batch_v5',
  sql: `select b_i, b_state, b_user, swap_id, replayed, key_conflict, s_entry, s_created
          from coffer_swap_batch($1::text[], $2::text[], $3::text[], $4::bigint[], $5::integer[], $6::integer[],
                                 $7::numeric[], $8::numeric[], $9::numeric[], $10::integer[], $11::numeric[],
                                 $12::numeric[], $13::integer[], $14::integer[], $15::text[], $16::boolean[])`,
  params: (items) => [
    items.map((s) => s.tokenHash),
    items.map((s) => s.key),
    items.map((s) => s.hash),
    items.map((s) => s.quoteId),
    items.map((s) => s.fromCurrencyId),
    items.map((s) => s.toCurrencyId),
    items.map((s) => s.price.fromAmount),
    items.map((s) => s.price.toAmount),
    items.map((s) => s.price.fee),
    items.map((s) => s.price.feeCurrencyId),
    items.map((s) => s.price.rate),
    items.map((s) => s.price.midRate),
    items.map((s) => s.price.spreadBps),
    items.map((s) => s.price.feeBps),
    items.map((s) => s.pairSignature),
    items.map((s) => s.stepped),
  ],
  state: (r) => r.b_state,
  row: (r) => ({
    state: r.b_state,
    userId: r.b_user === null ? null : Number(r.b_user),
    swapId: r.swap_id === null ? null : Number(r.swap_id),
    replayed: r.replayed === true,
    keyConflict: r.key_conflict === true,
    entryId: r.s_entry === null ? null : Number(r.s_entry),
    createdAt: r.s_created,
  }),
};
