import { parseUnits } from 'viem';
import type { Database } from '../../db/client.ts';
import type { Keyring } from '../keys.ts';
import { noteWait } from '../fee-policy.ts';
import { transition } from '../transition.ts';
import { type ChainLog, inTransaction } from '../txs.ts';
import { addressScriptHex as addressScript, deriveBip84Address } from './address.ts';
import type { UtxoParams } from './params.ts';
import { MAX_PAYOUTS_PER_BATCH, type Payout, planBatch, type SpendableOutput } from './payout-tx.ts';

/** Available outputs a batch may choose from (the largest first): a bounded read per tick. */
export const CANDIDATE_OUTPUTS_LIMIT = 2000;

export interface BatchNetwork {
  id: number;
  chainId: number;
  decimals: number;
  confirmations: number;
  feeRateFloor: bigint;
  feeRateCap: bigint;
  maxBumps: number;
  frozen: boolean;
}

export interface BatchContext {
  database: Database;
  params: UtxoParams;
  keys: Keyring;
  accountXpub: string;
  log: ChainLog;
}

interface QueuedRow {
  id: string;
  address: string;
  amount: string;
  queued_ms: string;
}

export type BatchOutcome =
  | { made: true; batchId: number; txid: string; raw: string; withdrawals: number }
  | { made: false; reason: 'nothing_due' | 'hot_wallet_short' | 'raced' };

/**
 * Forms one batch when it is due (docs/decisions/051-utxo-payouts.md): the oldest queued
 * withdrawal has waited `intervalMs` by the clock, or `size` are queued. Coin selection picks
 * available outputs; when they cannot pay every withdrawal, the newest are left for later.
 * The transaction is signed first (the batch id, taken from its sequence, names the change
 * key), then stored with the batch, its reserved inputs and its withdrawals moved
 * queued -> broadcast in one database transaction; the caller broadcasts after the commit.
 */
export async function formBatch(
  ctx: BatchContext,
  net: BatchNetwork,
  opts: { now: number; intervalMs: number; size: number; feeRate: bigint },
): Promise<BatchOutcome> {
  const { database, params } = ctx;
  const size = Math.min(opts.size, MAX_PAYOUTS_PER_BATCH);
  const queued = await database.sql.query<QueuedRow>(
    `select id::text, address, trim_scale(amount)::text as amount,
            (extract(epoch from coalesce(updated_at, created_at)) * 1000)::bigint::text as queued_ms
       from withdrawals where network_id = $1 and status = 'queued' order by id limit $2`,
    [net.id, size],
  );
  const oldest = queued[0];
  if (!oldest || (queued.length < size && Number(oldest.queued_ms) + opts.intervalMs > opts.now)) {
    return { made: false, reason: 'nothing_due' };
  }
  const available = await spendable(database, net);
  const [seq] = await database.sql.query<{ id: string }>(`select nextval('utxo_batches_id_seq')::text as id`);
  const batchId = Number(seq?.id);
  const changeAddress = deriveBip84Address(ctx.accountXpub, batchId, params, 1);
  const scriptOf = (branch: 0 | 1, index: number) => scriptHexOf(ctx.accountXpub, params, branch, index);
  // the newest withdrawals wait when the coins cannot pay them all
  let rows = queued;
  let plan: ReturnType<typeof planBatch> = null;
  while (rows.length > 0) {
    const payouts = rows.map((w) => ({ address: w.address, value: parseUnits(w.amount, net.decimals) }));
    plan = planBatch({ params, available, payouts, feeRate: opts.feeRate, changeAddress, scriptOf });
    if (plan) break;
    rows = rows.slice(0, -1);
  }
  if (!plan) {
    await noteWait(
      database,
      queued.map((w) => Number(w.id)),
      'hot_wallet_short',
    );
    return { made: false, reason: 'hot_wallet_short' };
  }
  const payouts: Payout[] = rows.map((w) => ({ address: w.address, value: parseUnits(w.amount, net.decimals) }));
  const change = plan.change > 0n ? { index: batchId, value: plan.change } : null;
  const signed = await ctx.keys.signUtxo(params, { chainId: params.chainId, inputs: plan.inputs, payouts, change });
  const inputTotal = plan.inputs.reduce((a, o) => a + o.value, 0n);
  const payoutTotal = payouts.reduce((a, p) => a + p.value, 0n);
  const stored = await inTransaction(database, async (q) => {
    await q(`insert into utxo_batches (id, network_id, input_total, payout_total, change_address) values ($1, $2, $3, $4, $5)`, [
      batchId,
      net.id,
      inputTotal.toString(),
      payoutTotal.toString(),
      changeAddress,
    ]);
    const reserved = await q(
      `update utxo_outputs set state = 'reserved', batch_id = $1, updated_at = now()
        where network_id = $2 and state = 'available' and (txid || ':' || vout) = any(string_to_array($3, ','))
        returning id`,
      [batchId, net.id, plan.inputs.map((o) => `${o.txid}:${o.vout}`).join(',')],
    );
    // an input taken meanwhile (a reorg removed its deposit), or a withdrawal cancelled:
    // nothing of this batch is kept, the next tick forms another
    if (reserved.length !== plan.inputs.length) throw new BatchRaced();
    await q(
      `insert into utxo_batch_txs (batch_id, tx_hash, raw_tx, fee, fee_rate, vsize, change_value)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [batchId, signed.txid, signed.hex, plan.fee.toString(), opts.feeRate.toString(), signed.vsize, plan.change.toString()],
    );
    for (const w of rows) {
      const moved = await transition(q, {
        machine: 'withdrawal',
        id: Number(w.id),
        from: 'queued',
        to: 'broadcast',
        set: { batch_id: batchId, tx_hash: signed.txid, broadcast_at: new Date(opts.now), wait_reason: null, wait_since: null },
      });
      if (!moved) throw new BatchRaced();
    }
    return true;
  }).catch((err: unknown) => {
    if (err instanceof BatchRaced) return false;
    throw err;
  });
  if (!stored) return { made: false, reason: 'raced' };
  ctx.log.info(
    { network: net.id, batch: batchId, txHash: signed.txid, withdrawals: rows.length, fee: plan.fee.toString() },
    'payout batch signed',
  );
  return { made: true, batchId, txid: signed.txid, raw: signed.hex, withdrawals: rows.length };
}

class BatchRaced extends Error {}

/**
 * Outputs with the key that spends each (a deposit address's index, or a batch's change):
 * $1 the chain id, then the caller's where clause and order.
 */
export const OUTPUTS_WITH_KEYS_SQL = `select o.txid, o.vout, o.value::text as value, o.key_branch as branch,
         coalesce(o.key_index, a.address_index) as index
    from utxo_outputs o
    left join deposit_addresses a on a.chain_id = $1 and a.address = o.address and o.key_branch = 0`;

type OutputRow = { txid: string; vout: number; value: string; branch: number; index: number | null };

/** Rows of OUTPUTS_WITH_KEYS_SQL as outputs to sign for (one without a known key is left out). */
export function spendableOf(rows: OutputRow[]): SpendableOutput[] {
  return rows.flatMap((r) =>
    r.index === null ? [] : [{ txid: r.txid, vout: r.vout, value: BigInt(r.value), branch: r.branch === 1 ? 1 : 0, index: r.index }],
  );
}

/** The network's available outputs, the largest first (a bounded read). */
async function spendable(database: Database, net: BatchNetwork): Promise<SpendableOutput[]> {
  const rows = await database.sql.query<OutputRow>(
    `${OUTPUTS_WITH_KEYS_SQL} where o.network_id = $2 and o.state = 'available' order by o.value desc, o.id limit $3`,
    [net.chainId, net.id, CANDIDATE_OUTPUTS_LIMIT],
  );
  return spendableOf(rows);
}

const scripts = new Map<string, string>();

/** The P2WPKH output script of the account's key branch/index (cached: the same outputs are weighed every batch). */
function scriptHexOf(accountXpub: string, params: UtxoParams, branch: 0 | 1, index: number): string {
  const key = `${accountXpub}/${branch}/${index}`;
  let script = scripts.get(key);
  if (script === undefined) {
    script = addressScript(deriveBip84Address(accountXpub, index, params, branch), params);
    if (scripts.size > 100_000) scripts.clear();
    scripts.set(key, script);
  }
  return script;
}
