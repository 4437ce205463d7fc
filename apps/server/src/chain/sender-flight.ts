import type { Database } from '../db/client.ts';
import { transition } from './transition.ts';
import { CHAIN_TX_COLUMNS, type ChainLog, type ChainTx, type ChainTxRow, inTransaction, markAttempts, toChainTx } from './txs.ts';

/**
 * The sender's withdrawals in flight (broadcast or confirming) with all their attempts, and
 * the moves that end or undo a flight without a payment of ours: a reorg (confirming ->
 * broadcast), an operator's zero-value replacement mined and final, the nonce taken by
 * another transaction (both refunded).
 */

export interface FlightContext {
  database: Database;
  chainId: number;
  hot: { address: string };
  log: ChainLog;
}

export interface FlightRow extends ChainTxRow {
  w_id: number | string;
  w_user: number | string;
  w_network: number;
  w_wait: string | null;
  w_status: 'broadcast' | 'confirming';
  w_nonce: string | null;
  w_tx_hash: string | null;
  w_block: string | null;
  confirmations: number;
}

export interface Flight {
  id: number;
  userId: number;
  networkId: number;
  waitReason: string | null;
  status: 'broadcast' | 'confirming';
  nonce: number;
  txHash: string | null;
  block: number | null;
  confirmations: number;
  attempts: ChainTx[];
}

export async function loadFlights(ctx: FlightContext): Promise<Flight[]> {
  const rows = await ctx.database.sql.query<FlightRow>(
    `select ${CHAIN_TX_COLUMNS}, w.id as w_id, w.user_id as w_user, w.network_id as w_network, w.wait_reason as w_wait, w.status as w_status, w.nonce::text as w_nonce,
            w.tx_hash as w_tx_hash, w.block_number::text as w_block, n.confirmations
     from withdrawals w join networks n on n.id = w.network_id join chain_txs t on t.withdrawal_id = w.id
     where n.chain_id = $1 and w.status in ('broadcast', 'confirming')
     order by w.id, t.id`,
    [ctx.chainId],
  );
  const flights = new Map<number, Flight>();
  for (const r of rows) {
    const id = Number(r.w_id);
    let f = flights.get(id);
    if (!f) {
      f = {
        id,
        userId: Number(r.w_user),
        networkId: r.w_network,
        waitReason: r.w_wait,
        status: r.w_status,
        nonce: Number(r.w_nonce),
        txHash: r.w_tx_hash,
        block: r.w_block === null ? null : Number(r.w_block),
        confirmations: r.confirmations,
        attempts: [],
      };
      flights.set(id, f);
    }
    f.attempts.push(toChainTx(r));
  }
  return [...flights.values()];
}

/** confirming -> broadcast: the receipt of the mined attempt is gone (reorg). */
export async function undoConfirming(ctx: FlightContext, f: Flight): Promise<boolean> {
  const changed = await inTransaction(ctx.database, async (q) => {
    const [w] = await q<{ status: string }>('select status from withdrawals where id = $1 for update', [f.id]);
    if (w?.status !== 'confirming') return false;
    await markAttempts(
      q,
      f.attempts.map((a) => a.id),
      null,
    );
    return transition(q, { machine: 'withdrawal', id: f.id, from: 'confirming', to: 'broadcast', set: { block_number: null } });
  });
  if (changed) {
    ctx.log.warn({ withdrawal: f.id }, 'withdrawal transaction no longer mined (reorg): back to broadcast, re-sending');
    for (const a of f.attempts) a.status = 'sent';
    f.status = 'broadcast';
  }
  return changed;
}

/**
 * An operator's zero-value replacement of the nonce was mined: nothing was paid. The money
 * goes back only once it is `confirmations` deep (before, a reorg could still bring the
 * original payment back).
 */
export async function refundCancelled(
  ctx: FlightContext,
  f: Flight,
  mined: { attempt: ChainTx; receipt: { blockNumber: bigint } },
  head: bigint,
): Promise<boolean> {
  if (head - mined.receipt.blockNumber + 1n < BigInt(f.confirmations)) return false;
  const done = await inTransaction(ctx.database, async (q) => {
    const [w] = await q<{ status: string }>('select status from withdrawals where id = $1 for update', [f.id]);
    if (w?.status !== 'broadcast' && w?.status !== 'confirming') return false;
    const ids = f.attempts.map((a) => a.id);
    await markAttempts(q, ids, mined.attempt.id, 'mined', mined.receipt.blockNumber);
    const reason = 'replaced by an operator with a zero-value transfer: nothing was paid';
    await q(`select coffer_withdraw_refund($1, 'failed', $2, '{broadcast,confirming}', null)`, [f.id, reason]);
    return true;
  });
  if (done) ctx.log.warn({ withdrawal: f.id, txHash: mined.attempt.hash }, 'withdrawal cancelled on chain by an operator: refunded');
  return done;
}

/** The withdrawal's nonce was consumed deep on chain by a transaction that is none of its attempts: nothing was paid. */
export async function failForeignNonce(ctx: FlightContext, f: Flight): Promise<boolean> {
  const done = await inTransaction(ctx.database, async (q) => {
    const [w] = await q<{ status: string }>('select status from withdrawals where id = $1 for update', [f.id]);
    if (w?.status !== 'broadcast') return false;
    for (const a of f.attempts) await q(`update chain_txs set status = 'replaced' where id = $1`, [a.id]);
    await q(`select coffer_withdraw_refund($1, 'failed', 'nonce used by another transaction', '{broadcast}', null)`, [f.id]);
    return true;
  });
  if (done) {
    ctx.log.error(
      { withdrawal: f.id, nonce: f.nonce, from: ctx.hot.address },
      'hot wallet nonce consumed by a transaction Coffer did not sign for this withdrawal: refunded; check who uses the hot wallet key',
    );
  }
  return done;
}
