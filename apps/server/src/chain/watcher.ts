import { formatUnits } from 'viem';
import type { Database } from '../db/client.ts';
import type { ChainAdapter, ChainDeposit } from './adapter.ts';

/** Blocks read per tick at most: a catching-up watcher commits its progress this often. */
export const WATCH_MAX_BLOCKS_PER_TICK = 2000;
/**
 * Block hashes kept below the tip, for finding the common ancestor after a reorg. A reorg
 * deeper than this cannot be walked back: it is recorded as an unrecoverable incident.
 */
export const WATCH_HASH_WINDOW = 128;

export interface WatcherLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

interface WatchedNetwork {
  id: number;
  currency_id: number;
  contract: string | null;
  token_decimals: number;
  currency_decimals: number;
  min_deposit: string;
  confirmations: number;
}

export interface TickResult {
  /** Blocks scanned in this tick (from..to), or null when the cursor was at the tip. */
  scanned: { from: number; to: number } | null;
  found: number;
  credited: number;
  /** Deposits the second look recorded that the first had missed. */
  rechecked: number;
  /** The height the watcher rewound to after a reorg, if one was seen. */
  rewoundTo: number | null;
  /** Milliseconds spent scanning (chain reads and recording) and crediting. */
  ms: { scan: number; credit: number };
}

/**
 * Follows one chain from a stored cursor (DESIGN §7): scans new blocks for transfers to
 * deposit addresses, records them at once as pending, credits each exactly once when it has
 * N confirmations, and on a reorg walks back to the common ancestor: pending deposits in the
 * removed blocks become dropped, credited ones an incident that freezes payouts.
 *
 * Every step is idempotent and its state is in the database, so a watcher killed at any
 * point and started again (here or in another process) neither misses nor double-credits:
 * deposits are upserted on (network, tx hash, log index) before the cursor moves, and the
 * credit is one SQL call that does nothing for a deposit that is not pending.
 */
export class DepositWatcher {
  constructor(
    private readonly database: Database,
    private readonly chain: ChainAdapter,
    private readonly chainId: number,
    private readonly opts: {
      log?: WatcherLog;
      maxBlocksPerTick?: number;
    } = {},
  ) {}

  async tick(): Promise<TickResult> {
    const head = await this.chain.head();
    const tip = Number(head.number);
    let cursor = await this.cursor(tip);
    let rewoundTo: number | null = null;

    const stored = cursor.number >= 0 ? await this.chain.blockHeader(BigInt(cursor.number)) : null;
    if (cursor.number >= 0 && stored?.hash !== cursor.hash) {
      rewoundTo = await this.rewind(cursor.number);
      cursor = await this.cursor(tip);
    }

    let scanned: TickResult['scanned'] = null;
    let found = 0;
    const from = cursor.number + 1;
    const to = Math.min(tip, cursor.number + (this.opts.maxBlocksPerTick ?? WATCH_MAX_BLOCKS_PER_TICK));
    const t0 = performance.now();
    if (from <= to) {
      const result = await this.scan(from, to, tip, cursor.number >= 0 ? cursor.hash : null);
      if (result === 'reorged') return { scanned: null, found: 0, credited: 0, rechecked: 0, rewoundTo, ms: { scan: 0, credit: 0 } };
      scanned = { from, to };
      found = result;
    }
    const t1 = performance.now();
    const height = Math.max(cursor.number, scanned?.to ?? cursor.number);
    const credited = await this.credit(height, scanned !== null);
    const rechecked = await this.recheck(height, tip);
    return { scanned, found, credited, rechecked, rewoundTo, ms: { scan: t1 - t0, credit: performance.now() - t1 } };
  }

  /**
   * The second look (pitfall: a node behind a load balancer may answer an empty log list for
   * a block it has not fully indexed): blocks first scanned near the tip are scanned again
   * once they are as deep as the chain's largest N. What the first look missed is recorded
   * then, already deep enough to be credited on the next tick. Blocks scanned during a deep
   * catch-up are not looked at twice: nodes answer those from settled data.
   */
  private async recheck(height: number, tip: number): Promise<number> {
    const [row] = await this.database.sql.query<{ rechecked: number; depth: number }>(
      `select c.rechecked_block as rechecked, coalesce((select max(confirmations) from networks where chain_id = $1), 1) as depth
       from chain_cursors c where c.chain_id = $1`,
      [this.chainId],
    );
    if (!row) return 0;
    const from = Math.max(Number(row.rechecked) + 1, tip - WATCH_HASH_WINDOW + 1, 0);
    const to = Math.min(height - Number(row.depth), from + (this.opts.maxBlocksPerTick ?? WATCH_MAX_BLOCKS_PER_TICK) - 1);
    if (from > to) return 0;
    const result = await this.scan(from, to, tip, null, true);
    return result === 'reorged' ? 0 : result;
  }

  /** The stored cursor; a new chain starts just below the current tip (no history to scan). */
  private async cursor(tip: number): Promise<{ number: number; hash: string }> {
    const [row] = await this.database.sql.query<{ block_number: number; block_hash: string }>(
      'select block_number, block_hash from chain_cursors where chain_id = $1',
      [this.chainId],
    );
    if (row) return { number: Number(row.block_number), hash: row.block_hash };
    const start = Math.max(-1, tip - 1);
    const header = start >= 0 ? await this.chain.blockHeader(BigInt(start)) : null;
    const hash = header?.hash ?? '';
    // The start block's hash is kept like any scanned block's: a reorg of the first blocks
    // scanned walks back to it (without it, no stored hash matched: an unrecoverable incident).
    await this.database.sql.query(
      `with blocks as (
         insert into chain_blocks (chain_id, block_number, block_hash, parent_hash)
         select $1, $2, $3, $4 where $3 <> '' on conflict (chain_id, block_number) do nothing
       )
       insert into chain_cursors (chain_id, block_number, block_hash) values ($1, $2, $3) on conflict (chain_id) do nothing`,
      [this.chainId, start, hash, header?.parentHash ?? ''],
    );
    return { number: start, hash };
  }

  private async networks(): Promise<WatchedNetwork[]> {
    return this.database.sql.query<WatchedNetwork>(
      `select n.id, n.currency_id, n.contract, n.token_decimals, c.decimals as currency_decimals, n.min_deposit::text,
              n.confirmations
       from networks n join currencies c on c.id = n.currency_id
       where n.chain_id = $1 and n.deposit_enabled and (n.native or n.contract is not null)`,
      [this.chainId],
    );
  }

  /**
   * Scans [from, to], records what it finds and moves the cursor to `to`, storing the hashes
   * of the blocks near the tip. Answers 'reorged' when the chain changed under the scan (the
   * next tick walks back), including a reorg of the cursor's block after it was checked: the
   * first scanned block must be the child of the cursor's block (`cursorHash`, null before
   * the first block).
   */
  private async scan(from: number, to: number, tip: number, cursorHash: string | null, recheck = false): Promise<number | 'reorged'> {
    const [networks, addresses] = await Promise.all([
      this.networks(),
      this.database.sql.query<{ address: string; user_id: number }>('select address, user_id from deposit_addresses where chain_id = $1', [
        this.chainId,
      ]),
    ]);
    const owner = new Map(addresses.map((a) => [a.address.toLowerCase(), Number(a.user_id)]));
    const keepFrom = Math.max(from, tip - WATCH_HASH_WINDOW + 1);
    const numbers: number[] = [];
    for (let n = keepFrom; n <= to; n++) numbers.push(n);

    const [deposits, headers] = await Promise.all([
      owner.size > 0
        ? this.chain.scanDeposits(
            BigInt(from),
            BigInt(to),
            new Set(owner.keys()),
            networks.map((n) => ({ networkId: n.id, contract: n.contract })),
          )
        : Promise.resolve([] as ChainDeposit[]),
      Promise.all(numbers.map((n) => this.chain.blockHeader(BigInt(n)))),
    ]);
    const last = to === numbers.at(-1) ? headers.at(-1) : await this.chain.blockHeader(BigInt(to));
    if (!last || headers.some((h) => h === null)) return 'reorged';
    const first = from === numbers[0] ? headers[0] : await this.chain.blockHeader(BigInt(from));
    if (!first || (cursorHash !== null && first.parentHash !== cursorHash)) return 'reorged';
    if (recheck) {
      // Behind the cursor: the chain must still be the one on record (else the rewind decides).
      const stored = await this.database.sql.query<{ block_number: number; block_hash: string }>(
        'select block_number, block_hash from chain_blocks where chain_id = $1 and block_number between $2 and $3',
        [this.chainId, from, to],
      );
      const now = new Map(headers.map((h) => [Number(h!.number), h!.hash]));
      if (stored.some((b) => now.get(Number(b.block_number)) !== b.block_hash)) return 'reorged';
    }
    // The headers must form one chain, and every deposit must sit in it (a reorg between the
    // calls would mix two forks).
    const hashOf = new Map(headers.map((h) => [Number(h!.number), h!.hash]));
    for (let i = 1; i < headers.length; i++) {
      if (headers[i]!.parentHash !== headers[i - 1]!.hash) return 'reorged';
    }
    if (deposits.some((d) => hashOf.has(Number(d.blockNumber)) && hashOf.get(Number(d.blockNumber)) !== d.blockHash)) {
      return 'reorged';
    }

    const byId = new Map(networks.map((n) => [n.id, n]));
    const rows = deposits
      .map((d) => {
        const net = byId.get(d.networkId)!;
        const userId = owner.get(d.to.toLowerCase())!;
        return { d, net, userId, amount: creditedAmount(d.value, net.token_decimals, net.currency_decimals) };
      })
      .filter((r) => r.userId !== undefined && r.amount !== null);

    const [recorded] = await this.database.sql.query<{ inserted: number }>(
      `with incoming as (
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
               status = case when deposits.status = 'dropped' then excluded.status else deposits.status end
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
       returning (select count(*) from upserted where inserted)::int as inserted`,
      [
        this.chainId,
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
        headers.map((h) => Number(h!.number)),
        headers.map((h) => h!.hash),
        headers.map((h) => h!.parentHash),
        tip - WATCH_HASH_WINDOW,
        to,
        last.hash,
        recheck,
      ],
    );
    if (rows.length > 0) this.opts.log?.info({ chainId: this.chainId, from, to, found: rows.length, recheck }, 'deposits seen');
    // The second look counts only what the first had missed.
    return recheck ? Number(recorded?.inserted ?? 0) : rows.length;
  }

  /**
   * Credits pending deposits with N confirmations whose block is still the one the watcher
   * has on record (a deposit in a block replaced since is left to the rewind), in one SQL
   * call that credits nothing twice (coffer_deposit_credit_due).
   */
  private async credit(height: number, advanced: boolean): Promise<number> {
    const rows = await this.database.sql.query<{ c_id: number }>('select c_id from coffer_deposit_credit_due($1, $2)', [
      this.chainId,
      height,
    ]);
    if (advanced) {
      // The other pending deposits moved one confirmation closer: their owners' screens update.
      await this.database.sql.query(
        `insert into user_events (user_id, type, ref_id, status)
         select d.user_id, 'deposit', d.id, 'pending' from deposits d join networks n on n.id = d.network_id
         where n.chain_id = $1 and d.status = 'pending' and d.block_number <= $2`,
        [this.chainId, height],
      );
    }
    if (rows.length > 0) this.opts.log?.info({ chainId: this.chainId, credited: rows.length }, 'deposits credited');
    return rows.length;
  }

  /**
   * The block at `from` is no longer the one on record: walks back through the stored hashes
   * to the highest block the chain still has, and undoes everything above it.
   */
  private async rewind(from: number): Promise<number> {
    const stored = await this.database.sql.query<{ block_number: number; block_hash: string }>(
      'select block_number, block_hash from chain_blocks where chain_id = $1 and block_number <= $2 order by block_number desc',
      [this.chainId, from],
    );
    let ancestor: number | null = null;
    for (const row of stored) {
      const header = await this.chain.blockHeader(BigInt(row.block_number));
      if (header?.hash === row.block_hash) {
        ancestor = Number(row.block_number);
        break;
      }
    }
    if (ancestor === null) {
      // Deeper than the stored window: start again below it and let an operator look.
      ancestor = Math.max(-1, (stored.at(-1)?.block_number ?? from) - 1);
      await this.database.sql.query(`insert into chain_incidents (chain_id, kind, detail) values ($1, 'unrecoverable_reorg', $2)`, [
        this.chainId,
        `reorg below block ${ancestor + 1}: no stored block hash matches the chain`,
      ]);
    }
    const header = ancestor >= 0 ? await this.chain.blockHeader(BigInt(ancestor)) : null;
    const [res] = await this.database.sql.query<{ dropped: number; incidents: number }>(
      `with gone as (
         select d.id, d.user_id, d.status, d.network_id, d.tx_hash, d.amount from deposits d join networks n on n.id = d.network_id
         where n.chain_id = $1 and d.block_number > $2 and d.status in ('pending', 'credited', 'below_minimum')
       ), dropped as (
         update deposits d set status = case when g.status = 'credited' then 'reorged_after_credit' else 'dropped' end,
                               updated_at = now()
         from gone g where d.id = g.id returning d.id, d.user_id, d.status
       ), events as (
         insert into user_events (user_id, type, ref_id, status) select user_id, 'deposit', id, status from dropped
       ), incidents as (
         insert into chain_incidents (network_id, chain_id, kind, detail)
         select g.network_id, $1, 'reorged_after_credit',
                'deposit ' || g.id || ' (tx ' || g.tx_hash || ', ' || g.amount::text || ') was credited and then removed by a reorg'
         from gone g where g.status = 'credited' returning id
       ), blocks as (
         delete from chain_blocks where chain_id = $1 and block_number > $2
       )
       update chain_cursors set block_number = $2, block_hash = $3, updated_at = now() where chain_id = $1
       returning (select count(*) from dropped)::int as dropped, (select count(*) from incidents)::int as incidents`,
      [this.chainId, ancestor, header?.hash ?? ''],
    );
    this.opts.log?.warn({ chainId: this.chainId, from, ancestor, ...res }, 'chain reorganized: rewound');
    return ancestor;
  }
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
