import type { Database } from '../../db/client.ts';
import type { Keyring } from '../keys.ts';
import { noteWait } from '../fee-policy.ts';
import type { Clock } from '../loop-health.ts';
import { transition } from '../transition.ts';
import { type ChainLog, inTransaction, silentChainLog } from '../txs.ts';
import { type BatchNetwork, formBatch, OUTPUTS_WITH_KEYS_SQL, spendableOf } from './payout-batch.ts';
import type { UtxoParams } from './params.ts';
import { replacementFee } from './payout-tx.ts';
import { type RpcValue, rpcInt, toBaseUnits, type UtxoRpc, UtxoRpcError } from './rpc.ts';

/** The confirmation target asked of estimatesmartfee (blocks): a payout within about an hour on Bitcoin. */
export const FEE_TARGET_BLOCKS = 6;
/** Open batches followed per tick (each costs one getrawtransaction per attempt, in one RPC batch). */
export const OPEN_BATCHES_LIMIT = 200;
/** The node's answer when a transaction spends outputs already spent or unknown. */
const MISSING_INPUTS = /missing-?inputs|inputs-missingorspent|txn-mempool-conflict/i;
/** The node's answer when it already has the transaction. */
const ALREADY_KNOWN = /already (in block chain|known)|txn-already-(known|in-mempool)/i;
const RPC_VERIFY_ALREADY_IN_CHAIN = -27;

export interface UtxoPayoutOptions {
  database: Database;
  rpc: UtxoRpc;
  params: UtxoParams;
  keys: Keyring;
  /** the account key the deposit addresses derive from; the signer's must be the same */
  accountXpub: string;
  clock: Clock;
  log?: ChainLog;
  /** a batch is formed once the oldest queued withdrawal waited this long (ms) ... */
  batchIntervalMs: number;
  /** ... or when this many are queued (also the most one batch pays) */
  batchSize: number;
  /** an attempt not mined after this long (ms) is replaced at a higher fee */
  bumpAfterMs: number;
}

export interface UtxoPayoutTick {
  formed: number;
  confirming: number;
  completed: number;
  bumped: number;
  resent: number;
  reorged: number;
}

interface Attempt {
  id: string;
  batch_id: string;
  tx_hash: string;
  raw_tx: string;
  fee: string;
  vsize: number;
  status: string;
  age_ms: string;
}

interface OpenBatch {
  id: string;
  network_id: number;
  status: 'broadcast' | 'confirming';
  input_total: string;
  payout_total: string;
  block_hash: string | null;
}

/**
 * Pays the UTXO network's withdrawals in batches (docs/decisions/051-utxo-payouts.md). The
 * chain's leader runs `tick()` after the deposit watcher: first it follows every open batch
 * through all its attempts (whichever is mined settles it at N confirmations; a reorg puts it
 * back), replaces an attempt not mined in time (same inputs, a higher fee from the change) and
 * re-sends what the node lost, then forms a new batch when one is due.
 */
export class UtxoPayouts {
  private readonly log: ChainLog;

  constructor(private readonly opts: UtxoPayoutOptions) {
    this.log = opts.log ?? silentChainLog;
  }

  async tick(): Promise<UtxoPayoutTick> {
    const result: UtxoPayoutTick = { formed: 0, confirming: 0, completed: 0, bumped: 0, resent: 0, reorged: 0 };
    const nets = await this.networks();
    if (nets.length === 0) return result;
    await this.follow(nets, result);
    for (const net of nets) {
      if (net.frozen) continue;
      const rate = await this.feeRate(net);
      if (rate === null) {
        const ids = await this.opts.database.sql.query<{ id: number }>(
          `select id from withdrawals where network_id = $1 and status = 'queued'`,
          [net.id],
        );
        await noteWait(
          this.opts.database,
          ids.map((r) => Number(r.id)),
          'fees_high',
        );
        continue;
      }
      const made = await formBatch(
        { database: this.opts.database, params: this.opts.params, keys: this.opts.keys, accountXpub: this.opts.accountXpub, log: this.log },
        net,
        { now: this.opts.clock(), intervalMs: this.opts.batchIntervalMs, size: this.opts.batchSize, feeRate: rate },
      );
      if (made.made) {
        result.formed++;
        await this.send(made.raw, made.txid);
      }
    }
    return result;
  }

  /** The UTXO networks of this chain that pay out (their settings are read every tick). */
  private async networks(): Promise<BatchNetwork[]> {
    const rows = await this.opts.database.sql.query<{
      id: number;
      decimals: number;
      confirmations: number;
      floor: string;
      cap: string;
      max_fee_bumps: number;
      frozen: boolean;
    }>(
      `select n.id, n.token_decimals as decimals, n.confirmations, n.fee_rate_floor::text as floor, n.fee_rate_cap::text as cap,
              n.max_fee_bumps, chain_payouts_frozen(n.id) as frozen
         from networks n where n.chain_id = $1 and n.family = 'utxo' order by n.id`,
      [this.opts.params.chainId],
    );
    return rows.map((r) => ({
      id: r.id,
      chainId: this.opts.params.chainId,
      decimals: r.decimals,
      confirmations: r.confirmations,
      feeRateFloor: BigInt(r.floor),
      feeRateCap: BigInt(r.cap),
      maxBumps: r.max_fee_bumps,
      frozen: r.frozen,
    }));
  }

  /**
   * The fee rate (base units per vbyte) for a payout now: estimatesmartfee, at least the
   * network's floor and the node's relay minimum; null above the network's cap (payouts wait
   * for fees to fall, as on an EVM chain). A node without an estimate (a fresh regtest) gets the floor.
   */
  private async feeRate(net: BatchNetwork): Promise<bigint | null> {
    const rate = await this.rateNow(net.feeRateFloor);
    return rate > net.feeRateCap ? null : rate;
  }

  /** The rate a withdrawal's fee quote is priced at (the caller compares it with the network's cap). */
  async quoteRate(networkId: number): Promise<bigint> {
    const [row] = await this.opts.database.sql.query<{ floor: string | null }>(
      'select fee_rate_floor::text as floor from networks where id = $1',
      [networkId],
    );
    return this.rateNow(BigInt(row?.floor ?? '1'));
  }

  private async rateNow(floor: bigint): Promise<bigint> {
    const [estimate, info] = await this.opts.rpc.batchSettled([
      { method: 'estimatesmartfee', params: [FEE_TARGET_BLOCKS] },
      { method: 'getnetworkinfo', params: [] },
    ]);
    if (info instanceof Error) throw info;
    const perKvB = (v: RpcValue | undefined) => (v === undefined ? 0n : toBaseUnits(v));
    const estimated = estimate instanceof Error ? 0n : perKvB((estimate as { feerate?: RpcValue }).feerate);
    const relay = perKvB((info as { relayfee?: RpcValue }).relayfee);
    // per kvB -> per vB, rounded up
    const perVb = (kvb: bigint) => (kvb + 999n) / 1000n;
    let rate = perVb(estimated);
    if (rate < floor) rate = floor;
    if (rate < perVb(relay)) rate = perVb(relay);
    return rate;
  }

  private async follow(nets: BatchNetwork[], result: UtxoPayoutTick): Promise<void> {
    const { database } = this.opts;
    const batches = await database.sql.query<OpenBatch>(
      `select id::text, network_id, status, input_total::text, payout_total::text, block_hash from utxo_batches
        where network_id = any(string_to_array($1, ',')::int[]) and status <> 'completed' order by id limit $2`,
      [nets.map((n) => n.id).join(','), OPEN_BATCHES_LIMIT],
    );
    if (batches.length === 0) return;
    const attempts = await database.sql.query<Attempt>(
      `select id::text, batch_id::text, tx_hash, raw_tx, fee::text, vsize, status,
              (extract(epoch from created_at) * 1000)::bigint::text as age_ms
         from utxo_batch_txs where batch_id = any(string_to_array($1, ',')::bigint[]) order by id`,
      [batches.map((b) => b.id).join(',')],
    );
    const seen = await this.opts.rpc.batchSettled(attempts.map((a) => ({ method: 'getrawtransaction', params: [a.tx_hash, true] })));
    const mined = new Map<string, { attempt: Attempt; confirmations: number; blockHash: string }>();
    attempts.forEach((a, i) => {
      const tx = seen[i];
      if (tx instanceof Error || !tx) return;
      const t = tx as { confirmations?: RpcValue; blockhash?: string };
      const confirmations = t.confirmations === undefined ? 0 : rpcInt(t.confirmations);
      if (confirmations > 0 && t.blockhash) mined.set(a.batch_id, { attempt: a, confirmations, blockHash: t.blockhash });
    });
    for (const b of batches) {
      const net = nets.find((n) => n.id === b.network_id) as BatchNetwork;
      const m = mined.get(b.id);
      const own = attempts.filter((a) => a.batch_id === b.id);
      if (m) await this.followMined(b, net, m, result);
      else if (b.status === 'confirming') {
        if (await this.unmine(b)) result.reorged++;
      } else await this.push(b, net, own, result);
    }
  }

  /** One attempt is mined: the batch and its withdrawals are confirming, and settle at N confirmations. */
  private async followMined(
    b: OpenBatch,
    net: BatchNetwork,
    m: { attempt: Attempt; confirmations: number; blockHash: string },
    result: UtxoPayoutTick,
  ): Promise<void> {
    const header = (await this.opts.rpc.call('getblockheader', [m.blockHash])) as { height: RpcValue };
    const height = rpcInt(header.height);
    if (b.status === 'broadcast' || b.block_hash !== m.blockHash) {
      const moved = await inTransaction(this.opts.database, async (q) => {
        const set = { tx_hash: m.attempt.tx_hash, block_number: height, block_hash: m.blockHash };
        if (b.status === 'confirming') {
          await q('update utxo_batches set tx_hash = $2, block_number = $3, block_hash = $4, updated_at = now() where id = $1', [
            b.id,
            set.tx_hash,
            height,
            m.blockHash,
          ]);
          return false;
        }
        if (!(await transition(q, { machine: 'utxo_batch', id: Number(b.id), from: 'broadcast', to: 'confirming', set }))) return false;
        const ws = await q<{ id: string }>(`select id::text from withdrawals where batch_id = $1 and status = 'broadcast'`, [b.id]);
        for (const w of ws) {
          await transition(q, {
            machine: 'withdrawal',
            id: Number(w.id),
            from: 'broadcast',
            to: 'confirming',
            set: { tx_hash: m.attempt.tx_hash, block_number: height, wait_reason: null, wait_since: null },
          });
        }
        return true;
      });
      if (moved) result.confirming++;
    }
    if (m.confirmations < net.confirmations) return;
    const [done] = await this.opts.database.sql.query<{ done: boolean }>('select coffer_utxo_batch_complete($1, $2, $3, $4) as done', [
      b.id,
      m.attempt.id,
      height,
      m.blockHash,
    ]);
    if (done?.done) {
      result.completed++;
      this.log.info({ batch: Number(b.id), txHash: m.attempt.tx_hash, block: height }, 'payout batch completed');
    }
  }

  /** The mined attempt's block was reorged away: confirming -> broadcast, for the batch and its withdrawals. */
  private unmine(b: OpenBatch): Promise<boolean> {
    return inTransaction(this.opts.database, async (q) => {
      const set = { block_number: null, block_hash: null };
      if (!(await transition(q, { machine: 'utxo_batch', id: Number(b.id), from: 'confirming', to: 'broadcast', set }))) return false;
      const ws = await q<{ id: string }>(`select id::text from withdrawals where batch_id = $1 and status = 'confirming'`, [b.id]);
      for (const w of ws) {
        await transition(q, { machine: 'withdrawal', id: Number(w.id), from: 'confirming', to: 'broadcast', set: { block_number: null } });
      }
      return true;
    });
  }

  /** No attempt mined: replace the latest when it is stale (and bumps are left), else send it again. */
  private async push(b: OpenBatch, net: BatchNetwork, attempts: Attempt[], result: UtxoPayoutTick): Promise<void> {
    const latest = attempts[attempts.length - 1];
    if (!latest) return;
    const stale = this.opts.clock() - Number(latest.age_ms) >= this.opts.bumpAfterMs;
    if (stale && attempts.length - 1 < net.maxBumps) {
      const bumped = await this.bump(b, net, latest);
      if (bumped) {
        result.bumped++;
        return;
      }
    }
    if (await this.send(latest.raw_tx, latest.tx_hash)) result.resent++;
  }

  /** Signs and stores a replacement of `latest` (same inputs, same payouts, a higher fee taken from the change), then sends it. */
  private async bump(b: OpenBatch, net: BatchNetwork, latest: Attempt): Promise<boolean> {
    const rate = await this.feeRate(net);
    const info = (await this.opts.rpc.call('getnetworkinfo')) as { incrementalfee?: RpcValue };
    const incremental = (toBaseUnits(info.incrementalfee ?? '0.00001') + 999n) / 1000n;
    const fee = replacementFee({
      inputTotal: BigInt(b.input_total),
      payoutTotal: BigInt(b.payout_total),
      oldFee: BigInt(latest.fee),
      vsize: latest.vsize,
      feeRate: rate ?? net.feeRateCap,
      incrementalRate: incremental > 0n ? incremental : 1n,
    });
    // the replacement may not pay more per vbyte than the network's cap
    if (!fee || fee.fee > net.feeRateCap * BigInt(latest.vsize)) return false;
    const { inputs, payouts } = await this.batchParts(b.id);
    const signed = await this.opts.keys.signUtxo(this.opts.params, {
      chainId: this.opts.params.chainId,
      inputs,
      payouts,
      change: fee.change > 0n ? { index: Number(b.id), value: fee.change } : null,
    });
    await inTransaction(this.opts.database, async (q) => {
      await q(`update utxo_batch_txs set status = 'replaced' where batch_id = $1 and status = 'sent'`, [b.id]);
      await q(
        `insert into utxo_batch_txs (batch_id, tx_hash, raw_tx, fee, fee_rate, vsize, change_value) values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          b.id,
          signed.txid,
          signed.hex,
          fee.fee.toString(),
          (fee.fee / BigInt(signed.vsize)).toString(),
          signed.vsize,
          fee.change.toString(),
        ],
      );
      await q(`update withdrawals set tx_hash = $2, updated_at = now() where batch_id = $1 and status = 'broadcast'`, [b.id, signed.txid]);
    });
    this.log.info(
      { batch: Number(b.id), from: latest.tx_hash, to: signed.txid, fee: fee.fee.toString() },
      'payout batch not mined in time: replaced at a higher fee',
    );
    await this.send(signed.hex, signed.txid);
    return true;
  }

  /** The inputs and payouts of a batch as its first attempt was signed (they never change). */
  private async batchParts(batchId: string) {
    const inputs = await this.opts.database.sql.query<Parameters<typeof spendableOf>[0][number]>(
      `${OUTPUTS_WITH_KEYS_SQL} where o.batch_id = $2 order by o.value desc, o.id`,
      [this.opts.params.chainId, batchId],
    );
    const payouts = await this.opts.database.sql.query<{ address: string; value: string }>(
      `select w.address, (w.amount * power(10::numeric, n.token_decimals))::bigint::text as value
         from withdrawals w join networks n on n.id = w.network_id where w.batch_id = $1 order by w.id`,
      [batchId],
    );
    return {
      inputs: spendableOf(inputs),
      payouts: payouts.map((p) => ({ address: p.address, value: BigInt(p.value) })),
    };
  }

  /** Sends a stored transaction; true when the node took it now. Refusals are logged (the next tick looks again). */
  private async send(raw: string, txid: string): Promise<boolean> {
    try {
      await this.opts.rpc.call('sendrawtransaction', [raw]);
      return true;
    } catch (err) {
      const message = (err as Error).message;
      if (ALREADY_KNOWN.test(message) || (err instanceof UtxoRpcError && err.code === RPC_VERIFY_ALREADY_IN_CHAIN)) return false;
      const level = MISSING_INPUTS.test(message) ? 'error' : 'warn';
      this.log[level]({ txHash: txid, error: message }, 'payout transaction refused by the node');
      return false;
    }
  }
}
