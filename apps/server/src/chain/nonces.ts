import type { PublicClient } from 'viem';
import { getAddress } from 'viem';
import type { Database } from '../db/client.ts';
import type { Query } from './txs.ts';

/**
 * Nonces of the addresses Coffer signs from many places (the hot wallet: withdrawals and gas
 * top-ups) live in chain_nonces and are handed out only here, inside the database
 * transaction that records the signed transaction (docs/product.md §9.4; Chainlink's tx manager). Two
 * callers never get the same nonce: the UPDATE locks the row until their commit.
 */

/**
 * Creates the row from the node's pending transaction count the first time, and moves it
 * forward if the node has seen more transactions from `address` than Coffer handed out (the
 * key was used outside Coffer, or the database is older than the chain): a nonce the chain has
 * already consumed is never signed. It never moves back (our own transactions that a node
 * forgot keep their nonces). One RPC call.
 */
export async function syncNonce(database: Database, client: PublicClient, chainId: number, address: string): Promise<void> {
  const pending = await client.getTransactionCount({ address: getAddress(address), blockTag: 'pending' });
  await database.sql.query(
    `insert into chain_nonces (chain_id, address, next_nonce) values ($1, $2, $3)
     on conflict (chain_id, address) do update set next_nonce = greatest(chain_nonces.next_nonce, excluded.next_nonce)`,
    [chainId, getAddress(address), pending],
  );
}

/**
 * Takes the next nonce of `address` in the caller's transaction (`q` runs inside it). The
 * row must exist (syncNonce). Committing hands the nonce out for good; rolling back returns it.
 */
export async function takeNonce(q: Query, chainId: number, address: string): Promise<number> {
  const [row] = await q<{ nonce: number | string }>(
    `update chain_nonces set next_nonce = next_nonce + 1 where chain_id = $1 and address = $2
     returning (next_nonce - 1)::text as nonce`,
    [chainId, getAddress(address)],
  );
  if (!row) throw new Error(`no nonce row for ${address} on chain ${chainId} (syncNonce first)`);
  return Number(row.nonce);
}
