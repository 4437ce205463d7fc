import type { Database } from '../../db/client.ts';
import type { WatcherLog } from '../watcher.ts';
import { creditedAmount, loadScope, type WatchScope } from '../watcher-scan.ts';
import { type BlockTx, outputsPaying, type UtxoChainAdapter } from './adapter.ts';
import { type UtxoRpc, UtxoRpcError } from './rpc.ts';

/**
 * Mempool transactions read (getrawtransaction, verbose) per tick at most. A mainnet mempool
 * holds tens of thousands; they are read in this many per tick (a few MB of JSON) and each is
 * read once while it stays in the mempool, so a large backlog is caught up over a few ticks.
 */
export const UTXO_MEMPOOL_TXS_PER_TICK = 2000;
/**
 * Unconfirmed deposits whose transaction left the mempool checked per tick (gettxout: mined,
 * or replaced/evicted). They are few: a deposit leaves that state within a block.
 */
export const UTXO_MEMPOOL_GONE_CHECKS_PER_TICK = 500;
/** The node's code for a transaction it does not have (it left the mempool between two calls). */
const RPC_INVALID_ADDRESS_OR_KEY = -5;

/** An output to a deposit address in a mempool transaction. */
interface MempoolOutput {
  to: string;
  vout: number;
  value: bigint;
}

export interface MempoolTickResult {
  /** mempool transactions read this tick */
  read: number;
  /** unconfirmed deposits recorded (new, or back in the mempool after a reorg) */
  seen: number;
  /** unconfirmed deposits removed: their transaction left the mempool without being mined */
  gone: number;
}

/**
 * Shows deposits before they are mined (docs/decisions/056-unconfirmed-deposits.md): an output
 * to a user's deposit script in the node's mempool is recorded as an 'unconfirmed' deposit
 * (0/N), which no credit path takes; the block watcher makes the same row 'pending' when the
 * transaction is mined, and this removes the row when the transaction leaves the mempool
 * unmined (replaced by fee, evicted). Nothing here touches the ledger.
 *
 * Runs after the block watcher in the chain's leader loop. Each transaction is read once while
 * it stays in the mempool (the outputs it pays to deposit addresses are kept in memory); every
 * tick records them all again, idempotently, so a failed tick loses nothing.
 */
export class UtxoMempoolWatcher {
  /** txid -> its outputs to deposit addresses (mostly none), for transactions still in the mempool */
  private readonly read = new Map<string, MempoolOutput[]>();

  constructor(
    private readonly database: Database,
    private readonly rpc: UtxoRpc,
    private readonly adapter: UtxoChainAdapter,
    private readonly chainId: number,
    private readonly opts: { log?: WatcherLog; txsPerTick?: number } = {},
  ) {}

  async tick(): Promise<MempoolTickResult> {
    const [scope, txids] = await Promise.all([loadScope(this.database, this.chainId), this.rpc.call('getrawmempool')]);
    const inPool = new Set(txids as string[]);
    for (const txid of this.read.keys()) if (!inPool.has(txid)) this.read.delete(txid);
    const native = scope.networks.find((n) => n.contract === null);
    if (!native || scope.owner.size === 0) return { read: 0, seen: 0, gone: 0 };

    const fresh = [...inPool].filter((txid) => !this.read.has(txid)).slice(0, this.opts.txsPerTick ?? UTXO_MEMPOOL_TXS_PER_TICK);
    await this.readTxs(fresh, this.adapter.watchedScripts(new Set(scope.owner.keys())));
    const gone = await this.leftUnmined(inPool);
    const res = await this.record(scope, native.id, gone);
    if (res.seen > 0 || res.gone > 0) this.opts.log?.info({ chainId: this.chainId, ...res }, 'mempool deposits');
    return { read: fresh.length, ...res };
  }

  /** Reads transactions new in the mempool and keeps their outputs to deposit addresses. */
  private async readTxs(txids: string[], byScript: ReadonlyMap<string, string>): Promise<void> {
    const txs = await this.rpc.batchSettled(txids.map((txid) => ({ method: 'getrawtransaction', params: [txid, true] })));
    for (const [i, tx] of txs.entries()) {
      // Mined or replaced since getrawmempool: the block watcher or the next tick decides.
      if (tx instanceof UtxoRpcError && tx.code === RPC_INVALID_ADDRESS_OR_KEY) continue;
      if (tx instanceof Error) throw tx;
      this.read.set(txids[i]!, outputsPaying(tx as unknown as BlockTx, byScript));
    }
  }

  /**
   * The unconfirmed deposits of this chain whose transaction is no longer in the mempool and
   * not mined either: its output is not in the node's confirmed set (gettxout without the
   * mempool). A deposit output is not spent before it is credited, so "not there" means the
   * transaction was replaced or evicted. A mined one stays for the block watcher to take.
   */
  private async leftUnmined(inPool: ReadonlySet<string>): Promise<string[]> {
    const rows = await this.database.sql.query<{ tx_hash: string; log_index: number }>(
      `select d.tx_hash, d.log_index from deposits d join networks n on n.id = d.network_id
       where n.chain_id = $1 and d.status = 'unconfirmed' order by d.id`,
      [this.chainId],
    );
    const left = rows.filter((r) => !inPool.has(r.tx_hash)).slice(0, UTXO_MEMPOOL_GONE_CHECKS_PER_TICK);
    const outs = await this.rpc.batch(left.map((r) => ({ method: 'gettxout', params: [r.tx_hash, r.log_index, false] })));
    return [...new Set(left.filter((_, i) => outs[i] === null).map((r) => r.tx_hash))];
  }

  private async record(scope: WatchScope, networkId: number, gone: string[]): Promise<{ seen: number; gone: number }> {
    const net = scope.byId.get(networkId)!;
    const rows = [...this.read.entries()].flatMap(([txid, outs]) =>
      outs.flatMap((o) => {
        const userId = scope.owner.get(o.to.toLowerCase());
        const amount = creditedAmount(o.value, net.token_decimals, net.currency_decimals);
        return userId === undefined || amount === null ? [] : [{ txid, userId, amount, ...o }];
      }),
    );
    if (rows.length === 0 && gone.length === 0) return { seen: 0, gone: 0 };
    const [res] = await this.database.sql.query<{ seen: number; gone: number }>(RECORD_MEMPOOL_SQL, [
      this.chainId,
      networkId,
      net.currency_id,
      rows.map((r) => r.userId),
      rows.map((r) => r.to),
      rows.map((r) => r.txid),
      rows.map((r) => r.vout),
      rows.map((r) => r.amount),
      gone,
    ]);
    return { seen: Number(res?.seen ?? 0), gone: Number(res?.gone ?? 0) };
  }
}

/**
 * One statement per tick: the mempool's outputs to deposit addresses upserted as
 * 'unconfirmed' (a row already mined is left alone; one a reorg dropped, back in the mempool,
 * is unconfirmed again), the unconfirmed rows of transactions that left unmined deleted, and
 * the owners' events ('unconfirmed', 'removed') for their screens.
 */
const RECORD_MEMPOOL_SQL = `with incoming as (
         select * from unnest($4::bigint[], $5::text[], $6::text[], $7::int[], $8::numeric[])
           as x(user_id, address, tx_hash, log_index, amount)
       ), upserted as (
         insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number,
                               block_hash, amount, status)
         select $2, $3, user_id, address, '', tx_hash, log_index, 0, '', amount, 'unconfirmed' from incoming
         on conflict (network_id, tx_hash, log_index) do update
           set status = 'unconfirmed', block_number = 0, block_hash = '', updated_at = now()
           where deposits.status = 'dropped'
         returning id, user_id
       ), gone as (
         delete from deposits d using networks n
         where n.id = d.network_id and n.chain_id = $1 and d.status = 'unconfirmed' and d.tx_hash = any($9::text[])
         returning d.id, d.user_id
       ), events as (
         insert into user_events (user_id, type, ref_id, status)
         select user_id, 'deposit', id, 'unconfirmed' from upserted
         union all select user_id, 'deposit', id, 'removed' from gone
       )
       select (select count(*) from upserted)::int as seen, (select count(*) from gone)::int as gone`;
