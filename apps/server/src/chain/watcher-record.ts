import type { Database } from '../db/client.ts';
import { creditedAmount, type WatchScope } from './watcher-scan.ts';
import type { ChunkRead } from './watcher-scan.ts';

/**
 * One statement records a scanned range: deposits upserted on (network, tx hash, log index),
 * the owners' events, the block hashes near the tip, the pruned window and the cursor. The
 * cursor therefore never moves without the deposits below it (decision 011).
 * $18 (recheck): the second look keeps the cursor and moves rechecked_block instead.
 */
const RECORD_SQL = `with incoming as (
         select * from unnest($2::int[], $3::int[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::int[],
                              $9::bigint[], $10::text[], $11::numeric[])
           as x(network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount)
       ), fresh as (
         -- A token Transfer's log index is its position in the block: a transaction that a reorg
         -- removed and that is mined again elsewhere comes back under another index. Events not
         -- yet recorded under their own key are paired (by order within the transaction) with
         -- the rows the reorg left behind for the same transfer (same tx, recipient and amount),
         -- so they take that row over instead of becoming a second deposit (credited twice).
         select i.*, row_number() over (partition by i.network_id, i.tx_hash, lower(i.address), i.amount order by i.log_index) as k
         from incoming i
         where not exists (select 1 from deposits e where e.network_id = i.network_id and e.tx_hash = i.tx_hash and e.log_index = i.log_index)
       ), orphans as (
         select d.id, d.network_id, d.tx_hash, lower(d.address) as address, d.amount,
                row_number() over (partition by d.network_id, d.tx_hash, lower(d.address), d.amount order by d.log_index) as k
         from deposits d
         where d.status in ('dropped', 'reorged_after_credit')
           and exists (select 1 from fresh f where f.network_id = d.network_id and f.tx_hash = d.tx_hash)
           and not exists (select 1 from incoming i where i.network_id = d.network_id and i.tx_hash = d.tx_hash and i.log_index = d.log_index)
       ), moved as (
         update deposits d set log_index = f.log_index, block_number = f.block_number, block_hash = f.block_hash, updated_at = now(),
                status = case when d.status = 'dropped' then case when f.amount < n.min_deposit then 'below_minimum' else 'pending' end
                              else d.status end
         from orphans o
         join fresh f on f.network_id = o.network_id and f.tx_hash = o.tx_hash and lower(f.address) = o.address and f.amount = o.amount
                     and f.k = o.k
         join networks n on n.id = f.network_id
         where d.id = o.id
         returning d.id, d.user_id, d.status, d.network_id, d.tx_hash, d.log_index
       ), upserted as (
         insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number,
                               block_hash, amount, status)
         select i.network_id, i.currency_id, i.user_id, i.address, i.from_address, i.tx_hash, i.log_index, i.block_number,
                i.block_hash, i.amount,
                case when i.amount < n.min_deposit then 'below_minimum' else 'pending' end
         from incoming i join networks n on n.id = i.network_id
         -- The hot wallet's gas top-ups to deposit addresses are custody moves, not deposits
         -- (they are recorded in chain_txs before they are broadcast).
         where not exists (select 1 from chain_txs t where t.chain_id = $1 and t.tx_hash = i.tx_hash and t.purpose = 'gas_topup')
           and not exists (select 1 from moved m where m.network_id = i.network_id and m.tx_hash = i.tx_hash and m.log_index = i.log_index)
         on conflict (network_id, tx_hash, log_index) do update
           set block_number = excluded.block_number, block_hash = excluded.block_hash, updated_at = now(),
               -- dropped by a reorg, or seen unconfirmed in a UTXO mempool (decision 056): mined now
               status = case when deposits.status in ('dropped', 'unconfirmed') then excluded.status else deposits.status end
         returning id, user_id, status, xmax = 0 as inserted
       ), events as (
         insert into user_events (user_id, type, ref_id, status)
         select user_id, 'deposit', id, status from upserted where inserted or not $18::boolean
         union all select user_id, 'deposit', id, status from moved
       ), blocks as (
         insert into chain_blocks (chain_id, block_number, block_hash, parent_hash)
         select $1, b, h, p from unnest($12::bigint[], $13::text[], $14::text[]) as y(b, h, p)
         on conflict (chain_id, block_number) do update set block_hash = excluded.block_hash, parent_hash = excluded.parent_hash
       ), pruned as (
         delete from chain_blocks where chain_id = $1 and block_number < $15
       )
       update chain_cursors
       set block_number = case when $18::boolean then block_number else $16 end,
           block_hash = case when $18::boolean then block_hash else $17 end,
           rechecked_block = case when $18::boolean then greatest(rechecked_block, $16) else rechecked_block end,
           updated_at = now()
       where chain_id = $1
       returning (select count(*) from upserted where inserted)::int as inserted`;

/**
 * Records one chunk read by readChunk and moves the cursor to its last block (or, for the
 * second look, the recheck mark). Answers the deposits seen, or for the second look only
 * those the first had missed. `pruneBelow`: block hashes below it are no longer kept.
 */
export async function recordChunk(
  database: Database,
  chainId: number,
  scope: WatchScope,
  chunk: ChunkRead,
  pruneBelow: number,
  recheck: boolean,
): Promise<number> {
  const rows = chunk.deposits
    .map((d) => {
      const net = scope.byId.get(d.networkId)!;
      const userId = scope.owner.get(d.to.toLowerCase())!;
      return { d, net, userId, amount: creditedAmount(d.value, net.token_decimals, net.currency_decimals) };
    })
    .filter((r) => r.userId !== undefined && r.amount !== null);
  const headers = chunk.headers;
  const [recorded] = await database.sql.query<{ inserted: number }>(RECORD_SQL, [
    chainId,
    rows.map((r) => r.net.id),
    rows.map((r) => r.net.currency_id),
    rows.map((r) => r.userId),
    rows.map((r) => r.d.to),
    rows.map((r) => r.d.from),
    rows.map((r) => r.d.txHash),
    rows.map((r) => r.d.logIndex),
    rows.map((r) => Number(r.d.blockNumber)),
    rows.map((r) => r.d.blockHash),
    rows.map((r) => r.amount),
    headers.map((h) => Number(h.number)),
    headers.map((h) => h.hash),
    headers.map((h) => h.parentHash),
    pruneBelow,
    chunk.to,
    chunk.last.hash,
    recheck,
  ]);
  // The second look counts only what the first had missed.
  return recheck ? Number(recorded?.inserted ?? 0) : rows.length;
}
