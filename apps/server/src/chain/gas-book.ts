import type { Hex, PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import { type ChainLog, receiptOf, silentChainLog } from './txs.ts';

export interface GasBookOptions {
  database: Database;
  /** viem public client on the chain, with cacheTime 0 */
  client: PublicClient;
  chainId: number;
  log?: ChainLog;
  /** chain transactions (and deposits below the minimum) looked at per tick; default 500 */
  batchSize?: number;
}

export interface GasBookResult {
  /** gas payments booked (float -> world) */
  gas: number;
  /** deposits below the minimum booked (world -> float) */
  unclaimed: number;
}

/**
 * The 'gas-book' worker (docs/decisions/038): books what custody spent or received outside
 * any user's balance, exactly once and only when final, so the ledger's custody total
 * follows the chain to the wei:
 *  - the gas of every chain transaction Coffer signed (payouts incl. mined replacements,
 *    sweeps, gas top-ups, cold moves): float -> world of gasUsed x effectiveGasPrice, read
 *    from the receipt, once the receipt has the native network's confirmations
 *    (coffer_gas_book; chain_gas is unique per chain_tx). A transaction a reorg removed has
 *    no receipt, or a receipt in a newer block: it is not booked now; after finality a reorg
 *    is the unrecoverable-reorg incident's business;
 *  - deposits below the network's minimum, final: world -> float (coffer_deposit_unclaimed_book),
 *    so a stranger's 1-wei deposit is custody with an owner and freezes nothing.
 * Until then reconciliation counts both as in transit (chain/reconcile.ts).
 */
export async function gasBook(opts: GasBookOptions): Promise<GasBookResult> {
  const { database, client, chainId } = opts;
  const log = opts.log ?? silentChainLog;
  const limit = opts.batchSize ?? 500;
  const head = await client.getBlockNumber();
  // every attempt not marked replaced: a status may lag the chain (a top-up's stays 'sent'
  // until its sweep moves on), so the receipt decides whether it was mined, and where
  const txs = await database.sql.query<{ id: string; tx_hash: string; confirmations: number }>(
    `select t.id::text as id, t.tx_hash, n.confirmations from chain_txs t
     join networks n on n.chain_id = t.chain_id and n.native
     where t.chain_id = $1 and t.status <> 'replaced'
       and not exists (select 1 from chain_gas g where g.chain_tx_id = t.id)
     order by t.id limit $2`,
    [chainId, limit],
  );
  let gas = 0;
  for (const t of txs) {
    const receipt = await receiptOf(client, t.tx_hash as Hex);
    // not mined, or not final yet (a reorg may still take it out): wait
    if (!receipt || head - receipt.blockNumber + 1n < BigInt(t.confirmations)) continue;
    const [row] = await database.sql.query<{ booked: boolean }>('select coffer_gas_book($1, $2::numeric, $3::numeric, $4) as booked', [
      t.id,
      receipt.gasUsed.toString(),
      receipt.effectiveGasPrice.toString(),
      receipt.blockNumber.toString(),
    ]);
    if (row?.booked) gas++;
  }

  const deposits = await database.sql.query<{ id: string }>(
    `select d.id::text as id from deposits d join networks n on n.id = d.network_id
     where n.chain_id = $1 and d.status = 'below_minimum' and $2::bigint - d.block_number + 1 >= n.confirmations
       and not exists (select 1 from deposit_unclaimed u where u.deposit_id = d.id)
     order by d.id limit $3`,
    [chainId, head.toString(), limit],
  );
  let unclaimed = 0;
  for (const d of deposits) {
    const [row] = await database.sql.query<{ booked: boolean }>('select coffer_deposit_unclaimed_book($1) as booked', [d.id]);
    if (row?.booked) unclaimed++;
  }
  if (gas + unclaimed > 0) log.info({ chainId, gas, unclaimed }, 'custody costs booked');
  return { gas, unclaimed };
}
