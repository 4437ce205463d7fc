import { type Address, decodeEventLog, erc20Abi, formatUnits, getAddress, type Hex, type PublicClient } from 'viem';
import type { Database } from '../db/client.ts';

/**
 * The operator's float (docs/decisions/038): coins the operator puts into the hot (or cold)
 * wallet are booked world -> float, once per chain transaction, after the transaction is
 * checked on chain. Without the booking reconciliation sees coins nobody is owed and opens
 * the drift incident, which is what a stranger's transfer to the hot wallet does until the
 * operator books it (docs/operations.md).
 */

export interface FundingNetwork {
  id: number;
  native: boolean;
  contract: string | null;
  token_decimals: number;
  cold_address: string | null;
}

export class FundingError extends Error {}

/**
 * What `hash` paid into the hot wallet (or the network's cold address) on `network`, in
 * base units: the native value of a successful transaction sent to it, or the sum of the
 * token's Transfer logs to it. Throws FundingError when it paid nothing there.
 */
export async function fundingAmount(client: PublicClient, network: FundingNetwork, hash: Hex, hot: Address): Promise<bigint> {
  const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
  if (!receipt) throw new FundingError(`transaction ${hash} is not mined on this chain`);
  if (receipt.status !== 'success') throw new FundingError(`transaction ${hash} reverted`);
  const ours = new Set([hot.toLowerCase(), ...(network.cold_address ? [network.cold_address.toLowerCase()] : [])]);
  // cold -> hot (or hot -> cold) is custody moving, not new coins
  const internal = (from: string) => ours.has(from.toLowerCase());
  let amount = 0n;
  if (network.native) {
    const tx = await client.getTransaction({ hash });
    if (tx.to && ours.has(tx.to.toLowerCase()) && !internal(tx.from)) amount = tx.value;
  } else if (network.contract) {
    const contract = network.contract.toLowerCase();
    for (const log of receipt.logs) {
      if (log.address.toLowerCase() !== contract) continue;
      try {
        const ev = decodeEventLog({ abi: erc20Abi, data: log.data, topics: log.topics, eventName: 'Transfer' });
        if (ours.has(ev.args.to.toLowerCase()) && !internal(ev.args.from)) amount += ev.args.value;
      } catch {
        // another event of the token
      }
    }
  }
  if (amount <= 0n) throw new FundingError(`transaction ${hash} paid nothing to the hot wallet on network ${network.id}`);
  return amount;
}

export interface BookFundingInput {
  networkId: number;
  hash: Hex;
  reason: string;
  actor: string;
  actorUserId?: number | null;
}

export interface BookedFunding {
  id: number;
  entryId: number;
  amount: string;
  replayed: boolean;
}

/** Verifies a funding on chain and books it (world -> float), once per transaction. */
export async function bookFunding(database: Database, client: PublicClient, hot: Address, input: BookFundingInput): Promise<BookedFunding> {
  const [network] = await database.sql.query<FundingNetwork>(
    'select id, native, contract, token_decimals, cold_address from networks where id = $1',
    [input.networkId],
  );
  if (!network) throw new FundingError(`network ${input.networkId} not found`);
  // Coffer's own transactions (sweeps, top-ups, cold moves) move custody; they are no funding
  const own = await database.sql.query('select 1 from chain_txs where lower(tx_hash) = $1', [input.hash.toLowerCase()]);
  if (own.length > 0) throw new FundingError(`transaction ${input.hash} is Coffer's own (a sweep, top-up or cold move)`);
  const units = await fundingAmount(client, network, input.hash, hot);
  const [row] = await database.sql.query<{ f_id: string; f_entry: string; f_amount: string; f_replayed: boolean }>(
    'select * from coffer_float_fund($1, $2, $3::numeric, $4, $5, $6)',
    [
      network.id,
      input.hash.toLowerCase(),
      formatUnits(units, network.token_decimals),
      input.reason,
      input.actor,
      input.actorUserId ?? null,
    ],
  );
  if (!row) throw new Error('coffer_float_fund answered nothing');
  return { id: Number(row.f_id), entryId: Number(row.f_entry), amount: row.f_amount, replayed: row.f_replayed };
}

/**
 * Books the embedded local chain's funding of the hot wallet (its transactions, from
 * startLocalChain's hotFunding), at every start: the second time each is a replay.
 */
export async function bookGenesisFunding(
  database: Database,
  client: PublicClient,
  chainId: number,
  hot: Address,
  hashes: readonly Hex[],
): Promise<number> {
  const networks = await database.sql.query<FundingNetwork>(
    'select id, native, contract, token_decimals, cold_address from networks where chain_id = $1 and (native or contract is not null) order by id',
    [chainId],
  );
  let booked = 0;
  for (const hash of hashes) {
    for (const n of networks) {
      const paid = await fundingAmount(client, n, hash, getAddress(hot)).catch((e) => {
        if (e instanceof FundingError) return 0n;
        throw e;
      });
      if (paid === 0n) continue;
      const r = await bookFunding(database, client, hot, {
        networkId: n.id,
        hash,
        reason: 'local chain genesis funding',
        actor: 'system:local-chain',
      });
      if (!r.replayed) booked++;
    }
  }
  return booked;
}
