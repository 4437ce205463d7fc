import type { Database } from '../db/client.ts';
import { type ChunkRead, creditedAmount, type WatchScope } from './watcher-scan.ts';

const RECORD_SQL = `select r_inserted, r_credited from coffer_deposit_record_chunk($1, $2::int[], $3::int[], $4::bigint[], $5::text[],
  $6::text[], $7::text[], $8::int[], $9::bigint[], $10::text[], $11::numeric[], $12::bigint[], $13::text[], $14::text[], $15, $16, $17,
  $18, $19)`;

/**
 * Records one chunk read by readChunk and moves the cursor to its last block (or, for the
 * second look, the recheck mark), in one call of coffer_deposit_record_chunk (decision 052):
 * deposits, the owners' events, the window's block hashes and the cursor in one statement
 * (decision 011), and with `credit` what is due at the chunk's last block, in the same
 * transaction. Answers the deposits seen (for the second look only those the first had
 * missed) and those credited. `pruneBelow`: block hashes below it are no longer kept.
 */
export async function recordChunk(
  database: Database,
  chainId: number,
  scope: WatchScope,
  chunk: ChunkRead,
  pruneBelow: number,
  mode: { recheck: boolean; credit: boolean },
): Promise<{ found: number; credited: number }> {
  const rows = chunk.deposits
    .map((d) => {
      const net = scope.byId.get(d.networkId)!;
      const userId = scope.owner.get(d.to.toLowerCase())!;
      return { d, net, userId, amount: creditedAmount(d.value, net.token_decimals, net.currency_decimals) };
    })
    .filter((r) => r.userId !== undefined && r.amount !== null);
  const headers = chunk.headers;
  const [recorded] = await database.sql.query<{ r_inserted: number; r_credited: number }>(RECORD_SQL, [
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
    mode.recheck,
    mode.credit,
  ]);
  // The second look counts only what the first had missed.
  const found = mode.recheck ? Number(recorded?.r_inserted ?? 0) : rows.length;
  return { found, credited: Number(recorded?.r_credited ?? 0) };
}
