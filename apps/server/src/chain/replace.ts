import type { Hex, LocalAccount, PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import {
  type BroadcastOutcome,
  broadcast,
  bumpedGasPrice,
  type ChainTx,
  type ChainTxPurpose,
  inTransaction,
  noteBroadcast,
  recordChainTx,
  signReplacement,
} from './txs.ts';

/**
 * The one replace-at-a-higher-price routine (withdrawals, sweeps, gas top-ups): the price of
 * the next replacement under a cap, and the replacement itself: signed, stored in chain_txs
 * in the transaction that points its owner row at it (only if the owner still points at the
 * attempt being replaced), then broadcast.
 */

/** The next price of a replacement of `old`: +10% or the node's price, at most `cap`; null when the cap leaves no room. */
export function replacementPrice(old: bigint, nodePrice: bigint, cap: bigint | null): bigint | null {
  const price = bumpedGasPrice(old, nodePrice);
  if (cap === null || price <= cap) return price;
  // at the cap, if the cap still pays the +10% a node requires of a replacement
  return cap >= bumpedGasPrice(old, 0n) ? cap : null;
}

export interface Replacement {
  database: Database;
  client: PublicClient;
  account: LocalAccount;
  chainId: number;
  latest: ChainTx;
  price: bigint;
  /** the owner row: its table, the status it must still be in, the column holding the latest hash */
  owner: { table: 'withdrawals' | 'sweeps'; id: number; status: string; hashColumn: 'tx_hash' | 'gas_tx_hash' };
  purpose: ChainTxPurpose;
  /** a new value (an ETH sweep sends what is left after the higher fee) */
  value?: bigint;
  /** more columns of the owner row set with the new hash (parameters) */
  ownerSet?: Readonly<Record<string, string>>;
  sentHead?: bigint | null;
}

export interface Replaced {
  hash: Hex;
  outcome: BroadcastOutcome;
  error?: string;
}

/** Signs, stores and broadcasts a replacement; null when the owner moved on meanwhile (nothing stored). */
export async function replaceAttempt(r: Replacement): Promise<Replaced | null> {
  const raw = await signReplacement(r.account, r.latest, r.price, r.chainId, r.value);
  const { table, id, status, hashColumn } = r.owner;
  const stored = await inTransaction(r.database, async (q) => {
    const [row] = await q<{ status: string; hash: string | null }>(
      `select status, ${hashColumn} as hash from ${table} where id = $1 for update`,
      [id],
    );
    if (row?.status !== status || row.hash !== r.latest.hash) return null;
    const hash = await recordChainTx(q, {
      chainId: r.chainId,
      purpose: r.purpose,
      withdrawalId: r.purpose === 'withdrawal' ? id : null,
      sweepId: r.purpose === 'withdrawal' ? null : id,
      from: r.latest.from,
      nonce: r.latest.nonce,
      raw,
      gasPrice: r.price,
      sentHead: r.sentHead ?? null,
    });
    const extra = Object.entries(r.ownerSet ?? {});
    const sets = extra.map(([column], i) => `, ${column} = $${i + 3}::numeric`).join('');
    await q(`update ${table} set ${hashColumn} = $2, updated_at = now()${sets} where id = $1`, [id, hash, ...extra.map(([, v]) => v)]);
    const [attempt] = await q<{ id: number | string }>('select id from chain_txs where chain_id = $1 and tx_hash = $2', [r.chainId, hash]);
    return { hash, attemptId: Number(attempt?.id) };
  });
  if (!stored) return null;
  const sent = await broadcast(r.client, raw);
  await noteBroadcast(r.database, stored.attemptId, sent);
  return { hash: stored.hash, ...sent };
}
