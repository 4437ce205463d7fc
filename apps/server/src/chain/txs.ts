import {
  BaseError,
  ExecutionRevertedError,
  type Hex,
  keccak256,
  type LocalAccount,
  type PublicClient,
  parseTransaction,
  parseUnits,
  TransactionReceiptNotFoundError,
  type TransactionReceipt,
} from 'viem';
import type { Database } from '../db/client.ts';

/**
 * What the sender and the sweeper share: raw SQL inside a drizzle transaction, the chain_txs
 * attempts table (every signed transaction, stored before it is broadcast), receipts of all
 * attempts of a nonce, broadcasting with the nodes' "already known" answers understood, and
 * the +10% replacement price.
 */

export interface ChainLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = () => {};
export const silentChainLog: ChainLog = { info: noop, warn: noop, error: noop };

import type { Query } from '../db/transaction.ts';

export { inTransaction, type Query } from '../db/transaction.ts';

export type ChainTxPurpose = 'withdrawal' | 'sweep' | 'gas_topup';
export type ChainTxStatus = 'sent' | 'mined' | 'reverted' | 'replaced';

/** One row of chain_txs (an attempt). */
export interface ChainTx {
  id: number;
  purpose: ChainTxPurpose;
  withdrawalId: number | null;
  sweepId: number | null;
  from: string;
  nonce: number;
  hash: Hex;
  raw: Hex;
  gasPrice: bigint;
  status: ChainTxStatus;
  blockNumber: number | null;
  sentHead: number | null;
  /** milliseconds since it was signed (database clock) */
  ageMs: number;
  /** broadcasts of it the node refused in a row (reset by one it takes) */
  broadcastErrors: number;
  /** false while it backs off after a refused broadcast (see retryBroadcastIn) */
  broadcastDue: boolean;
  /** an operator's zero-value replacement of a stuck payout's nonce: mined, it pays nothing */
  cancel: boolean;
}

export const CHAIN_TX_COLUMNS = `t.id, t.purpose, t.withdrawal_id, t.sweep_id, t.from_address, t.nonce::text as nonce, t.tx_hash,
  t.raw_tx, t.gas_price::text as gas_price, t.status, t.block_number::text as block_number, t.sent_head::text as sent_head,
  (extract(epoch from (now() - t.created_at)) * 1000)::float8 as age_ms, t.broadcast_errors,
  (t.next_broadcast_at is null or t.next_broadcast_at <= now()) as broadcast_due, t.cancel`;

export interface ChainTxRow {
  id: number | string;
  purpose: ChainTxPurpose;
  withdrawal_id: number | string | null;
  sweep_id: number | string | null;
  from_address: string;
  nonce: string;
  tx_hash: string;
  raw_tx: string;
  gas_price: string;
  status: ChainTxStatus;
  block_number: string | null;
  sent_head: string | null;
  age_ms: number | string;
  broadcast_errors: number;
  broadcast_due: boolean;
  cancel: boolean;
}

export function toChainTx(r: ChainTxRow): ChainTx {
  return {
    id: Number(r.id),
    purpose: r.purpose,
    withdrawalId: r.withdrawal_id === null ? null : Number(r.withdrawal_id),
    sweepId: r.sweep_id === null ? null : Number(r.sweep_id),
    from: r.from_address,
    nonce: Number(r.nonce),
    hash: r.tx_hash as Hex,
    raw: r.raw_tx as Hex,
    gasPrice: BigInt(r.gas_price),
    status: r.status,
    blockNumber: r.block_number === null ? null : Number(r.block_number),
    sentHead: r.sent_head === null ? null : Number(r.sent_head),
    ageMs: Number(r.age_ms),
    broadcastErrors: Number(r.broadcast_errors ?? 0),
    broadcastDue: r.broadcast_due ?? true,
    cancel: r.cancel ?? false,
  };
}

/** Groups attempts by an owner key, keeping their order (oldest first). */
export function groupBy<K>(attempts: ChainTx[], key: (t: ChainTx) => K | null): Map<K, ChainTx[]> {
  const out = new Map<K, ChainTx[]>();
  for (const t of attempts) {
    const k = key(t);
    if (k === null) continue;
    const list = out.get(k);
    if (list) list.push(t);
    else out.set(k, [t]);
  }
  return out;
}

export interface NewChainTx {
  chainId: number;
  purpose: ChainTxPurpose;
  withdrawalId?: number | null;
  sweepId?: number | null;
  from: string;
  nonce: number;
  raw: Hex;
  gasPrice: bigint;
  sentHead: bigint | number | null;
  /** an operator's zero-value replacement (docs/decisions/037) */
  cancel?: boolean;
}

/** Inserts an attempt (inside the caller's transaction); returns its hash. */
export async function recordChainTx(q: Query, t: NewChainTx): Promise<Hex> {
  const hash = keccak256(t.raw);
  await q(
    `insert into chain_txs (chain_id, purpose, withdrawal_id, sweep_id, from_address, nonce, tx_hash, raw_tx, gas_price, sent_head, cancel)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10, $11)`,
    [
      t.chainId,
      t.purpose,
      t.withdrawalId ?? null,
      t.sweepId ?? null,
      t.from,
      t.nonce,
      hash,
      t.raw,
      t.gasPrice.toString(),
      t.sentHead === null ? null : Number(t.sentHead),
      t.cancel ?? false,
    ],
  );
  return hash;
}

/**
 * Marks the attempts of one nonce after a receipt was found: the mined one `mined` or
 * `reverted` (with its block), every other `replaced`. `minedId` null puts them all back to
 * `sent` (the receipt disappeared in a reorg).
 */
export async function markAttempts(
  q: Query,
  ids: number[],
  minedId: number | null,
  outcome: 'mined' | 'reverted' = 'mined',
  block: bigint | number | null = null,
): Promise<void> {
  for (const id of ids) {
    if (minedId === null) {
      await q(`update chain_txs set status = 'sent', block_number = null where id = $1`, [id]);
    } else if (id === minedId) {
      await q('update chain_txs set status = $2, block_number = $3 where id = $1', [id, outcome, Number(block)]);
    } else {
      await q(`update chain_txs set status = 'replaced', block_number = null where id = $1`, [id]);
    }
  }
}

/** The receipt of `hash`, or null while it is not mined (or was reorged out). */
export async function receiptOf(client: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    if (err instanceof BaseError && err.walk((e) => e instanceof TransactionReceiptNotFoundError)) return null;
    throw err;
  }
}

/** Receipts of many attempts at once (one JSON-RPC batch with a batching transport). */
export async function receiptsOf(client: PublicClient, attempts: ChainTx[]): Promise<Map<Hex, TransactionReceipt | null>> {
  const receipts = await Promise.all(attempts.map((a) => receiptOf(client, a.hash)));
  return new Map(attempts.map((a, i) => [a.hash, receipts[i] ?? null]));
}

/** The attempt of a nonce that the chain holds, if any (at most one can be mined). */
export function minedAttempt(
  attempts: ChainTx[],
  receipts: Map<Hex, TransactionReceipt | null>,
): { attempt: ChainTx; receipt: TransactionReceipt } | null {
  for (const attempt of attempts) {
    const receipt = receipts.get(attempt.hash);
    if (receipt) return { attempt, receipt };
  }
  return null;
}

export type BroadcastOutcome =
  /** the node took it now */
  | 'sent'
  /** the node already had it (a re-send): fine */
  | 'known'
  /** the nonce is used on chain: one of the attempts (or something else) was mined; look at the receipts */
  | 'nonce_used'
  /** a better-priced attempt of this nonce is in the node's pool */
  | 'underpriced'
  /** refused for another reason (insufficient funds, below base fee, node down...): retried next tick */
  | 'error';

const KNOWN = /already known|already imported|known transaction|alreadyknown|already in (the )?(mem)?pool|tx already exists/i;
const NONCE_USED = /nonce too low|nonce has already been used|oldnonce|invalid nonce|nonce is too low/i;
const UNDERPRICED = /replacement transaction underpriced|replacement.*underpriced|transaction underpriced.*replace/i;

/** The node's own words for a failure (viem puts them in `details`). */
export function errorText(err: unknown): string {
  if (err instanceof BaseError) return `${err.shortMessage}${err.details ? `: ${err.details}` : ''}`.slice(0, 500);
  return String((err as Error)?.message ?? err).slice(0, 500);
}

/** sendRawTransaction, with the answers that mean "nothing to do" told apart from failures. */
export async function broadcast(client: PublicClient, raw: Hex): Promise<{ outcome: BroadcastOutcome; error?: string }> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
    return { outcome: 'sent' };
  } catch (err) {
    const text = errorText(err);
    if (KNOWN.test(text)) return { outcome: 'known' };
    if (NONCE_USED.test(text)) return { outcome: 'nonce_used', error: text };
    if (UNDERPRICED.test(text)) return { outcome: 'underpriced', error: text };
    return { outcome: 'error', error: text };
  }
}

/** A refused broadcast is retried after this long (ms), doubling with each refusal in a row... */
export const BROADCAST_RETRY_FIRST_MS = 5_000;
/** ...up to this long (ms) between two tries. */
export const BROADCAST_RETRY_MAX_MS = 600_000;
/**
 * Refusals in a row after which a stored attempt is no longer re-sent by the workers: the
 * payout (or sweep) is stuck and waits for an operator (docs/operations.md says what to alert on).
 */
export const MAX_BROADCAST_ERRORS = 20;

/** The back-off (ms) after the `errors`-th refusal in a row: 5 s, 10 s, 20 s ... capped at 10 min. */
export function retryBroadcastIn(errors: number): number {
  const doubled = BROADCAST_RETRY_FIRST_MS * 2 ** Math.max(0, Math.min(errors - 1, 20));
  return Math.min(doubled, BROADCAST_RETRY_MAX_MS);
}

/** True when the workers may broadcast this stored attempt now (not backing off, not given up). */
export function mayBroadcast(attempt: ChainTx): boolean {
  return attempt.broadcastDue && attempt.broadcastErrors < MAX_BROADCAST_ERRORS;
}

/**
 * Stores the node's answer to a broadcast of an attempt: a refusal counts and sets when it is
 * tried again (retryBroadcastIn, database clock); any other answer clears both.
 */
export async function noteBroadcast(database: Database, attemptId: number, result: { outcome: BroadcastOutcome; error?: string }) {
  if (result.outcome !== 'error') {
    await database.sql.query(
      `update chain_txs set last_error = null, broadcast_errors = 0, next_broadcast_at = null
       where id = $1 and (last_error is not null or broadcast_errors <> 0)`,
      [attemptId],
    );
    return;
  }
  const [row] = await database.sql.query<{ broadcast_errors: number }>('select broadcast_errors from chain_txs where id = $1', [attemptId]);
  const errors = Number(row?.broadcast_errors ?? 0) + 1;
  await database.sql.query(
    `update chain_txs set last_error = $2, broadcast_errors = $3, next_broadcast_at = now() + $4 * interval '1 millisecond' where id = $1`,
    [attemptId, result.error ?? 'refused', errors, retryBroadcastIn(errors)],
  );
}

/** True when an error of eth_estimateGas / eth_call says the call itself reverts. */
export function isRevert(err: unknown): boolean {
  if (err instanceof BaseError && err.walk((e) => e instanceof ExecutionRevertedError)) return true;
  return /execution reverted|reverted/i.test(errorText(err));
}

/** geth's txpool price bump: a replacement must pay at least 10% more (legacypool PriceBump). */
export const PRICE_BUMP_PERCENT = 10n;

/**
 * Gas price of a replacement of a legacy transaction priced `old`: at least old x 1.1 rounded
 * up (geth refuses less; anvil accepts anything above old, so tests on anvil would not notice),
 * strictly above old, and at least what the node asks now.
 */
export function bumpedGasPrice(old: bigint, nodePrice: bigint): bigint {
  const bumped = (old * (100n + PRICE_BUMP_PERCENT) + 99n) / 100n;
  const floor = bumped > old ? bumped : old + 1n;
  return floor > nodePrice ? floor : nodePrice;
}

/**
 * Signs a replacement of `attempt` (same nonce, recipient, value, data and gas) at `gasPrice`.
 * `value` overrides the value (an ETH sweep sends what is left after the higher fee).
 */
export async function signReplacement(
  account: LocalAccount,
  attempt: ChainTx,
  gasPrice: bigint,
  chainId: number,
  value?: bigint,
): Promise<Hex> {
  const tx = parseTransaction(attempt.raw);
  if (tx.nonce === undefined || tx.gas === undefined) throw new Error(`attempt ${attempt.hash} lacks nonce or gas`);
  return account.signTransaction({
    type: 'legacy',
    chainId,
    nonce: tx.nonce,
    to: tx.to ?? undefined,
    value: value ?? tx.value ?? 0n,
    data: tx.data,
    gas: tx.gas,
    gasPrice,
  });
}

/** What a signed legacy transaction can take from its sender at most: value + gas x gasPrice. */
export function maxCost(raw: Hex): bigint {
  const tx = parseTransaction(raw);
  return (tx.value ?? 0n) + (tx.gas ?? 0n) * (tx.gasPrice ?? 0n);
}

/**
 * What the hot wallet has promised but the chain may not show yet, so a balance read at
 * 'latest' must be reduced by it before new payouts are signed:
 *  - native: for every nonce with an attempt still `sent`, the most any of its attempts can
 *    take (value + gas x price);
 *  - tokens: the amounts of withdrawals still 'broadcast' (not seen mined), per network, in
 *    base units.
 * A transaction mined since it was last checked is counted twice: that only errs on the safe
 * side (a payout waits one more tick).
 */
export async function hotCommitments(
  database: Database,
  chainId: number,
  hot: string,
): Promise<{ native: bigint; tokens: Map<number, bigint> }> {
  const rows = await database.sql.query<{ nonce: string; raw_tx: string }>(
    `select t.nonce::text as nonce, t.raw_tx from chain_txs t
     where t.chain_id = $1 and lower(t.from_address) = lower($2) and t.status = 'sent'`,
    [chainId, hot],
  );
  const perNonce = new Map<string, bigint>();
  for (const r of rows) {
    const cost = maxCost(r.raw_tx as Hex);
    const prev = perNonce.get(r.nonce) ?? 0n;
    if (cost > prev) perNonce.set(r.nonce, cost);
  }
  let native = 0n;
  for (const c of perNonce.values()) native += c;

  const tokenRows = await database.sql.query<{ network_id: number; amount: string; token_decimals: number }>(
    `select w.network_id, w.amount::text as amount, n.token_decimals from withdrawals w join networks n on n.id = w.network_id
     where n.chain_id = $1 and not n.native and w.status = 'broadcast'`,
    [chainId],
  );
  const tokens = new Map<number, bigint>();
  for (const r of tokenRows) {
    tokens.set(r.network_id, (tokens.get(r.network_id) ?? 0n) + toBaseUnits(r.amount, r.token_decimals));
  }
  return { native, tokens };
}

/**
 * A ledger amount (NUMERIC text, e.g. "1.500000000000000000") in base units of a token with
 * `decimals`: exact, or an error when it has more significant decimals than the token.
 */
export function toBaseUnits(amount: string, decimals: number): bigint {
  const [int = '0', frac = ''] = amount.trim().split('.');
  const significant = frac.replace(/0+$/, '');
  if (significant.length > decimals) {
    throw new Error(`amount ${amount} has more decimals than the token (${decimals})`);
  }
  return parseUnits(significant ? `${int}.${significant}` : int, decimals);
}

/** The node's gas price, or null when it is above the cap (nothing is signed then). */
export async function cappedGasPrice(client: PublicClient, cap: bigint | undefined): Promise<{ price: bigint; capped: boolean }> {
  const price = await client.getGasPrice();
  if (cap !== undefined && price > cap) return { price, capped: true };
  return { price, capped: false };
}
