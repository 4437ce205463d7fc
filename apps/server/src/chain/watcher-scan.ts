import { formatUnits } from 'viem';
import type { Database } from '../db/client.ts';
import type { ChainAdapter, ChainDeposit } from './adapter.ts';

/**
 * Block hashes kept below the tip, for finding the common ancestor after a reorg. A reorg
 * deeper than this cannot be walked back: it is recorded as an unrecoverable incident.
 */
export const WATCH_HASH_WINDOW = 128;

export interface WatchedNetwork {
  id: number;
  currency_id: number;
  contract: string | null;
  token_decimals: number;
  currency_decimals: number;
  min_deposit: string;
  confirmations: number;
}

/** What one tick watches: the chain's networks and the owner of each deposit address (lowercase). */
export interface WatchScope {
  networks: WatchedNetwork[];
  byId: Map<number, WatchedNetwork>;
  owner: Map<string, number>;
}

export interface BlockHeader {
  number: bigint;
  hash: string;
  parentHash: string;
}

/** One range read from the chain and checked for consistency, not yet recorded. */
export interface ChunkRead {
  from: number;
  to: number;
  deposits: ChainDeposit[];
  /** the headers of the range's blocks inside the hash window, in order (may be empty) */
  headers: BlockHeader[];
  first: BlockHeader;
  last: BlockHeader;
}

/** Loads the scope once per tick (two queries in parallel). */
export async function loadScope(database: Database, chainId: number): Promise<WatchScope> {
  const [networks, addresses] = await Promise.all([
    database.sql.query<WatchedNetwork>(
      `select n.id, n.currency_id, n.contract, n.token_decimals, c.decimals as currency_decimals, n.min_deposit::text,
              n.confirmations
       from networks n join currencies c on c.id = n.currency_id
       where n.chain_id = $1 and n.deposit_enabled and (n.native or n.contract is not null)`,
      [chainId],
    ),
    database.sql.query<{ address: string; user_id: number }>('select address, user_id from deposit_addresses where chain_id = $1', [
      chainId,
    ]),
  ]);
  return {
    networks,
    byId: new Map(networks.map((n) => [n.id, n])),
    owner: new Map(addresses.map((a) => [a.address.toLowerCase(), Number(a.user_id)])),
  };
}

/**
 * Reads [from, to] from the chain: the deposits, the headers of the blocks inside the hash
 * window (`tip` decides which), and the first and last headers. No database access, so it can
 * run while an earlier range is being recorded. Answers 'reorged' when the chain changed
 * under the reads: a header is missing, the window's headers do not chain by parent hash, or
 * a deposit sits in a block other than the header read for its height (two forks mixed).
 * Whether the range continues the recorded chain (its first block's parent) is the caller's
 * check, made just before recording. `known`: headers read earlier in this tick, used instead
 * of reading them again; the last block's header is always read again, and must be the known
 * one (its hash commits to every block below it).
 */
export async function readChunk(
  chain: ChainAdapter,
  scope: WatchScope,
  from: number,
  to: number,
  tip: number,
  known: ReadonlyMap<number, BlockHeader> = new Map(),
): Promise<ChunkRead | 'reorged'> {
  const keepFrom = Math.max(from, tip - WATCH_HASH_WINDOW + 1);
  const numbers: number[] = [];
  for (let n = keepFrom; n <= to; n++) numbers.push(n);
  const header = (n: number) => (n !== to && known.has(n) ? Promise.resolve(known.get(n)!) : chain.blockHeader(BigInt(n)));
  const edge = (n: number) => (numbers.includes(n) ? Promise.resolve(null) : chain.blockHeader(BigInt(n)));
  const [deposits, headers, firstOutside, lastOutside] = await Promise.all([
    scope.owner.size > 0
      ? chain.scanDeposits(
          BigInt(from),
          BigInt(to),
          new Set(scope.owner.keys()),
          scope.networks.map((n) => ({ networkId: n.id, contract: n.contract })),
        )
      : Promise.resolve([] as ChainDeposit[]),
    Promise.all(numbers.map(header)),
    edge(from),
    edge(to),
  ]);
  if (headers.some((h) => h === null)) return 'reorged';
  const kept = headers as BlockHeader[];
  const first = numbers[0] === from ? kept[0] : firstOutside;
  const last = numbers.at(-1) === to ? kept.at(-1) : lastOutside;
  if (known.has(to) && last?.hash !== known.get(to)!.hash) return 'reorged';
  if (!first || !last) return 'reorged';
  for (let i = 1; i < kept.length; i++) {
    if (kept[i]!.parentHash !== kept[i - 1]!.hash) return 'reorged';
  }
  const hashOf = new Map(kept.map((h) => [Number(h.number), h.hash]));
  if (deposits.some((d) => hashOf.has(Number(d.blockNumber)) && hashOf.get(Number(d.blockNumber)) !== d.blockHash)) {
    return 'reorged';
  }
  return { from, to, deposits, headers: kept, first, last };
}

/**
 * The amount to credit, in the currency's unit: the token's base units cut to the
 * currency's decimals (a remainder below the currency's precision is dust left on chain).
 * null when nothing is left.
 */
export function creditedAmount(value: bigint, tokenDecimals: number, currencyDecimals: number): string | null {
  const cut = tokenDecimals > currencyDecimals ? 10n ** BigInt(tokenDecimals - currencyDecimals) : 1n;
  const kept = (value / cut) * cut;
  if (kept <= 0n) return null;
  return formatUnits(kept, tokenDecimals);
}
