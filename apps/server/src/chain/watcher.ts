import type { Database } from '../db/client.ts';
import type { ChainAdapter } from './adapter.ts';
import { pipelineCatchUp, WATCH_CHUNK_BLOCKS, WATCH_CHUNKS_AHEAD } from './watcher-pipeline.ts';
import { recordChunk } from './watcher-record.ts';
import { type BlockHeader, type ChunkRead, loadScope, readChunk, WATCH_HASH_WINDOW, type WatchScope } from './watcher-scan.ts';

export { WATCH_CHUNK_BLOCKS, WATCH_CHUNKS_AHEAD } from './watcher-pipeline.ts';
export { creditedAmount, WATCH_HASH_WINDOW } from './watcher-scan.ts';

/**
 * Blocks read per tick at most. Progress is committed per chunk (WATCH_CHUNK_BLOCKS); this
 * bounds how long one tick runs before the loop's other work (and the next cursor check).
 */
export const WATCH_MAX_BLOCKS_PER_TICK = 10_000;

interface StoredCursor {
  number: number;
  hash: string;
  /** the second look's mark: blocks up to here were scanned again once N deep */
  rechecked: number;
  /** the chain's largest N */
  depth: number;
}

export interface WatcherLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
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
  /**
   * Milliseconds spent scanning (chain reads and recording) and crediting. The chunks' credits,
   * made in their record calls, count under scan; credit is the time after.
   */
  ms: { scan: number; credit: number };
}

/**
 * Follows one chain from a stored cursor (decision 011): scans new blocks for transfers to
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
      /** blocks per chunk of a catch-up; default WATCH_CHUNK_BLOCKS */
      chunkBlocks?: number;
      /** chunks read ahead of the one being recorded; default WATCH_CHUNKS_AHEAD */
      chunksAhead?: number;
    } = {},
  ) {}

  async tick(): Promise<TickResult> {
    // The head, the cursor and the scope in parallel (fewer steps one after another: each costs
    // a wake-up of two processes); a new chain's cursor, which needs the tip, is made after.
    const [head, row, scope] = await Promise.all([this.chain.head(), this.cursorRow(), loadScope(this.database, this.chainId)]);
    const tip = Number(head.number);
    let cursor = row ?? (await this.startCursor(tip));
    let rewoundTo: number | null = null;

    const stored = cursor.number >= 0 ? await this.chain.blockHeader(BigInt(cursor.number)) : null;
    if (cursor.number >= 0 && stored?.hash !== cursor.hash) {
      rewoundTo = await this.rewind(cursor.number);
      cursor = (await this.cursorRow())!;
    }

    let scanned: TickResult['scanned'] = null;
    let found = 0;
    let credits: Promise<number> | null = null;
    let known = new Map<number, BlockHeader>();
    const from = cursor.number + 1;
    const to = Math.min(tip, cursor.number + (this.opts.maxBlocksPerTick ?? WATCH_MAX_BLOCKS_PER_TICK));
    const t0 = performance.now();
    if (from <= to) {
      const run = await this.catchUp(scope, from, to, tip, cursor.number >= 0 ? cursor.hash : null);
      if (run.recordedTo !== null) scanned = { from, to: run.recordedTo };
      found = run.found;
      known = run.headers;
      credits = run.credits;
      // A reorg seen mid-way: nothing more this tick; the next one checks the cursor and walks back.
      if (run.reorged) {
        const credited = await run.credits;
        return { scanned, found, credited, rechecked: 0, rewoundTo, ms: { scan: performance.now() - t0, credit: 0 } };
      }
    }
    const t1 = performance.now();
    const height = Math.max(cursor.number, scanned?.to ?? cursor.number);
    // A catch-up's credits (its last one at this height, decision 066) finish while the second
    // look reads the chain and records what the first missed; then the owners of what is still
    // pending get their events (after the credits, so no 'pending' event follows a 'credited'
    // one). What the second look records is credited by the first credit to begin after it
    // committed, this tick's or a later one's (exactly once either way, in SQL).
    const [creditNow, second] = await Promise.allSettled([
      credits ? this.afterCredits(credits, height) : this.credit(height),
      this.readRecheck(scope, cursor, height, tip, known).then((chunk) => this.recordRecheck(scope, chunk, tip)),
    ]);
    if (creditNow.status === 'rejected') throw creditNow.reason;
    if (second.status === 'rejected') throw second.reason;
    const credited = creditNow.value;
    const rechecked = second.value;
    return { scanned, found, credited, rechecked, rewoundTo, ms: { scan: t1 - t0, credit: performance.now() - t1 } };
  }

  /** Scans [from, to] in chunks, each recorded (cursor moved) behind the chain reads, and credited behind its record. */
  private catchUp(scope: WatchScope, from: number, to: number, tip: number, cursorHash: string | null) {
    return pipelineCatchUp(
      from,
      to,
      cursorHash,
      {
        read: (s, e) => readChunk(this.chain, scope, s, e, tip),
        record: async (chunk) => {
          const mode = { recheck: false, credit: false };
          const done = await recordChunk(this.database, this.chainId, scope, chunk, tip - WATCH_HASH_WINDOW, mode);
          if (done.found > 0)
            this.opts.log?.info({ chainId: this.chainId, from: chunk.from, to: chunk.to, found: done.found }, 'deposits seen');
          return done;
        },
        credit: (height) => this.credit(height),
      },
      { chunkBlocks: this.opts.chunkBlocks ?? WATCH_CHUNK_BLOCKS, chunksAhead: this.opts.chunksAhead ?? WATCH_CHUNKS_AHEAD },
    );
  }

  /**
   * The second look (pitfall: a node behind a load balancer may answer an empty log list for
   * a block it has not fully indexed): blocks first scanned near the tip are scanned again
   * once they are as deep as the chain's largest N. What the first look missed is recorded
   * then, already deep enough to be credited on the next tick. Blocks scanned during a deep
   * catch-up are not looked at twice: nodes answer those from settled data.
   */
  private async readRecheck(
    scope: WatchScope,
    row: { rechecked: number; depth: number },
    height: number,
    tip: number,
    known: Map<number, BlockHeader>,
  ): Promise<ChunkRead | null> {
    const from = Math.max(Number(row.rechecked) + 1, tip - WATCH_HASH_WINDOW + 1, 0);
    const to = Math.min(height - Number(row.depth), from + (this.opts.maxBlocksPerTick ?? WATCH_MAX_BLOCKS_PER_TICK) - 1);
    if (from > to) return null;
    const chunk = await readChunk(this.chain, scope, from, to, tip, known);
    return chunk === 'reorged' ? null : chunk;
  }

  private async recordRecheck(scope: WatchScope, chunk: ChunkRead | null, tip: number): Promise<number> {
    if (!chunk) return 0;
    // Behind the cursor: the chain must still be the one on record (else the rewind decides).
    const stored = await this.database.sql.query<{ block_number: number; block_hash: string }>(
      'select block_number, block_hash from chain_blocks where chain_id = $1 and block_number between $2 and $3',
      [this.chainId, chunk.from, chunk.to],
    );
    const now = new Map(chunk.headers.map((h) => [Number(h.number), h.hash]));
    if (stored.some((b) => now.get(Number(b.block_number)) !== b.block_hash)) return 0;
    const mode = { recheck: true, credit: false };
    const { found: missed } = await recordChunk(this.database, this.chainId, scope, chunk, tip - WATCH_HASH_WINDOW, mode);
    if (missed > 0)
      this.opts.log?.info({ chainId: this.chainId, from: chunk.from, to: chunk.to, found: missed, recheck: true }, 'deposits seen');
    return missed;
  }

  /**
   * The stored cursor, with the second look's mark and depth (the chain's largest N): the mark
   * moves only by the second look, after it is read in the same tick.
   */
  private async cursorRow(): Promise<StoredCursor | null> {
    const [row] = await this.database.sql.query<{ block_number: number; block_hash: string; rechecked: number; depth: number }>(
      `select c.block_number, c.block_hash, c.rechecked_block as rechecked,
              coalesce((select max(confirmations) from networks where chain_id = $1), 1) as depth
       from chain_cursors c where c.chain_id = $1`,
      [this.chainId],
    );
    if (!row) return null;
    return { number: Number(row.block_number), hash: row.block_hash, rechecked: Number(row.rechecked), depth: Number(row.depth) };
  }

  /** A new chain starts just below the current tip (no history to scan). */
  private async startCursor(tip: number): Promise<StoredCursor> {
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
    return (await this.cursorRow())!;
  }

  /**
   * Credits pending deposits with N confirmations whose block is still the one the watcher
   * has on record (a deposit in a block replaced since is left to the rewind), in one SQL
   * call that credits nothing twice (coffer_deposit_credit_due).
   */
  private async credit(height: number): Promise<number> {
    const rows = await this.database.sql.query<{ c_id: number }>('select c_id from coffer_deposit_credit_due($1, $2)', [
      this.chainId,
      height,
    ]);
    if (rows.length > 0) this.opts.log?.info({ chainId: this.chainId, credited: rows.length }, 'deposits credited');
    return rows.length;
  }

  /** The catch-up's credits, then the owners' pending events; answers the number credited. */
  private async afterCredits(credits: Promise<number>, height: number): Promise<number> {
    const credited = await credits;
    await this.pendingEvents(height);
    return credited;
  }

  /** After the cursor moved: the other pending deposits are one confirmation closer, their owners' screens update. */
  private async pendingEvents(height: number): Promise<void> {
    await this.database.sql.query(
      `insert into user_events (user_id, type, ref_id, status)
       select d.user_id, 'deposit', d.id, 'pending' from deposits d join networks n on n.id = d.network_id
       where n.chain_id = $1 and d.status = 'pending' and d.block_number <= $2`,
      [this.chainId, height],
    );
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
