import type { Hex, LocalAccount, PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import { type FeePolicy, loadFeePolicies, noteWait } from './fee-policy.ts';
import { sendQueued } from './sender-queued.ts';
import { replaceAttempt, replacementPrice } from './replace.ts';
import { transition } from './transition.ts';
import {
  broadcast,
  CHAIN_TX_COLUMNS,
  type ChainLog,
  type ChainTx,
  type ChainTxRow,
  inTransaction,
  markAttempts,
  mayBroadcast,
  minedAttempt,
  noteBroadcast,
  receiptsOf,
  silentChainLog,
  toChainTx,
} from './txs.ts';

export interface WithdrawalSenderOptions {
  database: Database;
  /** viem public client on the chain, with cacheTime 0 (createEvmClient) */
  client: PublicClient;
  /** the hot wallet (HdWallet.hotAccount()) */
  hot: LocalAccount;
  chainId: number;
  log?: ChainLog;
  /** replace an attempt that is not mined after this long (ms); default 30 000 */
  bumpAfterMs?: number;
  /** ...or after this many new blocks since it was signed; unset: time only */
  bumpAfterBlocks?: number;
  /**
   * Lowers every network's gas_price_cap_wei (wei) further (tests); the caps and the bump
   * limit themselves are read from the networks rows on every tick (fee-policy.ts)
   */
  maxFeeWei?: bigint;
  /** queued withdrawals signed per tick at most; default 50 */
  batchSize?: number;
  /**
   * Test hook: runs after a withdrawal's transaction is committed and before it is broadcast.
   * Throwing stops the tick right there, as a crash would.
   */
  afterCommit?: (info: { withdrawalId: number; txHash: Hex }) => void | Promise<void>;
}

/** What one tick did (for logs and tests). */
export interface SenderTickResult {
  /** queued -> broadcast (new transactions signed and sent) */
  signed: number;
  /** queued withdrawals left queued: the hot wallet is short, the gas price above the cap, or the node failed */
  waiting: number;
  /** stored attempts sent again (not mined yet; after a crash, a drop or a reorg) */
  resent: number;
  /** replacements at a higher gas price */
  bumped: number;
  /** broadcast -> confirming (a receipt was seen) */
  confirming: number;
  /** settled in the ledger (completed) */
  completed: number;
  /** reverted on chain, refused before signing, or nonce used by another transaction: refunded */
  failed: number;
  /** confirming -> broadcast (the receipt disappeared) */
  reorged: number;
}

interface FlightRow extends ChainTxRow {
  w_id: number | string;
  w_user: number | string;
  w_network: number;
  w_wait: string | null;
  w_status: 'broadcast' | 'confirming';
  w_nonce: string | null;
  w_tx_hash: string | null;
  w_block: string | null;
  confirmations: number;
}

interface Flight {
  id: number;
  userId: number;
  networkId: number;
  waitReason: string | null;
  status: 'broadcast' | 'confirming';
  nonce: number;
  txHash: string | null;
  block: number | null;
  confirmations: number;
  attempts: ChainTx[];
}

/**
 * Pays out withdrawals from the hot wallet (DESIGN §7). One instance per chain; the chain
 * leader runs `tick()` in its loop, serially with the sweeper (they share the hot wallet's
 * nonces through chain_nonces). Safe against crashes at any point: a transaction is signed and
 * stored (chain_txs) in the same database transaction that marks the withdrawal 'broadcast'
 * and takes its nonce, and only broadcast after that commit; every later step looks at the
 * receipts of all stored attempts of that nonce, so a second payment is never signed.
 */
export class WithdrawalSender {
  private readonly database: Database;
  private readonly client: PublicClient;
  private readonly hot: LocalAccount;
  private readonly chainId: number;
  private readonly log: ChainLog;
  private readonly bumpAfterMs: number;
  private readonly bumpAfterBlocks: number | undefined;
  private readonly maxFeeWei: bigint | undefined;
  private readonly batchSize: number;
  private readonly afterCommit: WithdrawalSenderOptions['afterCommit'];
  /** this tick's fee policy per network id (read at the start of every tick) */
  private policies = new Map<number, FeePolicy>();

  constructor(opts: WithdrawalSenderOptions) {
    this.database = opts.database;
    this.client = opts.client;
    this.hot = opts.hot;
    this.chainId = opts.chainId;
    this.log = opts.log ?? silentChainLog;
    this.bumpAfterMs = opts.bumpAfterMs ?? 30_000;
    this.bumpAfterBlocks = opts.bumpAfterBlocks;
    this.maxFeeWei = opts.maxFeeWei;
    this.batchSize = opts.batchSize ?? 50;
    this.afterCommit = opts.afterCommit;
  }

  /**
   * One pass: first follow what is in flight (receipts of every attempt; confirm, settle,
   * refund a revert, undo a reorg, re-send or replace what is not mined), then sign and send
   * the queued withdrawals the hot wallet can pay. Idle (nothing queued or in flight), it
   * makes no RPC call.
   */
  async tick(): Promise<SenderTickResult> {
    const result: SenderTickResult = { signed: 0, waiting: 0, resent: 0, bumped: 0, confirming: 0, completed: 0, failed: 0, reorged: 0 };
    this.policies = await loadFeePolicies(this.database, this.chainId, this.maxFeeWei);
    await this.follow(result);
    await sendQueued({
      database: this.database,
      client: this.client,
      hot: this.hot,
      chainId: this.chainId,
      log: this.log,
      batchSize: this.batchSize,
      policies: this.policies,
      afterCommit: this.afterCommit,
      result,
    });
    return result;
  }

  // ---- in flight ----------------------------------------------------------------------------

  private async inFlight(): Promise<Flight[]> {
    const rows = await this.database.sql.query<FlightRow>(
      `select ${CHAIN_TX_COLUMNS}, w.id as w_id, w.user_id as w_user, w.network_id as w_network, w.wait_reason as w_wait, w.status as w_status, w.nonce::text as w_nonce,
              w.tx_hash as w_tx_hash, w.block_number::text as w_block, n.confirmations
       from withdrawals w join networks n on n.id = w.network_id join chain_txs t on t.withdrawal_id = w.id
       where n.chain_id = $1 and w.status in ('broadcast', 'confirming')
       order by w.id, t.id`,
      [this.chainId],
    );
    const flights = new Map<number, Flight>();
    for (const r of rows) {
      const id = Number(r.w_id);
      let f = flights.get(id);
      if (!f) {
        f = {
          id,
          userId: Number(r.w_user),
          networkId: r.w_network,
          waitReason: r.w_wait,
          status: r.w_status,
          nonce: Number(r.w_nonce),
          txHash: r.w_tx_hash,
          block: r.w_block === null ? null : Number(r.w_block),
          confirmations: r.confirmations,
          attempts: [],
        };
        flights.set(id, f);
      }
      f.attempts.push(toChainTx(r));
    }
    return [...flights.values()];
  }

  private async follow(result: SenderTickResult): Promise<void> {
    const flights = await this.inFlight();
    if (flights.length === 0) return;
    // the head first: a transaction mined at or below it is seen by the receipts read after it
    // (the foreign-nonce check below relies on that)
    const head = await this.client.getBlockNumber();
    const receipts = await receiptsOf(
      this.client,
      flights.flatMap((f) => f.attempts),
    );

    const unmined: Flight[] = [];
    for (const f of flights) {
      const mined = minedAttempt(f.attempts, receipts);
      if (!mined) {
        if (f.status === 'confirming') {
          if (await this.undoConfirming(f)) result.reorged++;
        }
        unmined.push(f);
        continue;
      }
      if (mined.attempt.cancel) {
        if (await this.refundCancelled(f, mined, head)) result.failed++;
        continue;
      }
      const block = mined.receipt.blockNumber;
      const success = mined.receipt.status === 'success';
      const final = head - block + 1n >= BigInt(f.confirmations);
      const outcome = success ? 'mined' : 'reverted';
      const marked = f.attempts.every((a) =>
        a.id === mined.attempt.id ? a.status === outcome && a.blockNumber === Number(block) : a.status === 'replaced',
      );
      const current = f.status === 'confirming' && f.block === Number(block) && f.txHash === mined.attempt.hash && marked;
      if (current && !final) continue;
      const done = await inTransaction(this.database, async (q) => {
        const [w] = await q<{ status: string }>('select status from withdrawals where id = $1 for update', [f.id]);
        if (!w || (w.status !== 'broadcast' && w.status !== 'confirming')) return null;
        let became: 'confirming' | null = null;
        if (!current) {
          await markAttempts(
            q,
            f.attempts.map((a) => a.id),
            mined.attempt.id,
            outcome,
            block,
          );
          const set = { tx_hash: mined.attempt.hash, block_number: Number(block), wait_reason: null, wait_since: null };
          if (w.status === 'confirming') {
            // mined again in another block (a reorg): the same status, a new place
            await q('update withdrawals set tx_hash = $2, block_number = $3, updated_at = now() where id = $1', [
              f.id,
              set.tx_hash,
              set.block_number,
            ]);
          } else if (await transition(q, { machine: 'withdrawal', id: f.id, from: 'broadcast', to: 'confirming', set })) {
            became = 'confirming';
          }
        }
        if (!final) return became;
        if (success) {
          await q('select coffer_withdraw_settle($1, $2, $3)', [f.id, mined.attempt.hash, Number(block)]);
          return 'completed' as const;
        }
        await q(`select coffer_withdraw_refund($1, 'failed', 'reverted on chain', '{broadcast,confirming}', null)`, [f.id]);
        return 'failed' as const;
      });
      if (done === 'confirming') result.confirming++;
      if (done === 'completed' || done === 'failed') {
        if (f.status === 'broadcast') result.confirming++;
        result[done]++;
        this.log.info({ withdrawal: f.id, txHash: mined.attempt.hash, block: Number(block) }, `withdrawal ${done}`);
      }
    }
    if (unmined.length > 0) await this.push(unmined, head, result);
  }

  /** confirming -> broadcast: the receipt of the mined attempt is gone (reorg). */
  private async undoConfirming(f: Flight): Promise<boolean> {
    const changed = await inTransaction(this.database, async (q) => {
      const [w] = await q<{ status: string }>('select status from withdrawals where id = $1 for update', [f.id]);
      if (w?.status !== 'confirming') return false;
      await markAttempts(
        q,
        f.attempts.map((a) => a.id),
        null,
      );
      return transition(q, { machine: 'withdrawal', id: f.id, from: 'confirming', to: 'broadcast', set: { block_number: null } });
    });
    if (changed) {
      this.log.warn({ withdrawal: f.id }, 'withdrawal transaction no longer mined (reorg): back to broadcast, re-sending');
      for (const a of f.attempts) a.status = 'sent';
      f.status = 'broadcast';
    }
    return changed;
  }

  /** Attempts with no receipt: fail a nonce taken by someone else, replace stale ones, re-send the rest. */
  private async push(flights: Flight[], head: bigint, result: SenderTickResult): Promise<void> {
    // A nonce is "used by another transaction" only when the chain consumed it at least
    // `confirmations` blocks deep while no attempt of ours has a receipt.
    const consumed = new Map<number, number>(); // confirmations -> tx count at that depth
    for (const conf of new Set(flights.map((f) => f.confirmations))) {
      const depthBlock = head - BigInt(conf) + 1n;
      if (depthBlock < 0n) continue;
      consumed.set(conf, await this.client.getTransactionCount({ address: this.hot.address, blockNumber: depthBlock }));
    }
    let nodePrice: bigint | undefined;
    const exhausted: number[] = [];
    for (const f of flights) {
      const deepCount = consumed.get(f.confirmations);
      if (deepCount !== undefined && deepCount > f.nonce) {
        if (await this.failForeignNonce(f)) result.failed++;
        continue;
      }
      const latest = f.attempts[f.attempts.length - 1] as ChainTx;
      const stale =
        latest.ageMs >= this.bumpAfterMs ||
        (this.bumpAfterBlocks !== undefined && latest.sentHead !== null && Number(head) - latest.sentHead >= this.bumpAfterBlocks);
      if (stale && f.status === 'broadcast' && !latest.cancel) {
        const policy = this.policies.get(f.networkId);
        // replacements so far: every attempt after the first signature of this nonce
        if (f.attempts.length - 1 >= (policy?.maxBumps ?? 0)) {
          if (f.waitReason !== 'fee_bumps_exhausted') exhausted.push(f.id);
        } else {
          nodePrice ??= await this.client.getGasPrice();
          if (await this.bump(f, latest, nodePrice, head, policy)) {
            result.bumped++;
            continue;
          }
        }
      }
      if (!mayBroadcast(latest)) continue; // backing off after refusals, or given up (an operator's turn)
      const sent = await broadcast(this.client, latest.raw);
      await noteBroadcast(this.database, latest.id, sent);
      if (sent.outcome === 'sent') result.resent++;
      if (sent.outcome === 'error')
        this.log.warn({ withdrawal: f.id, txHash: latest.hash, error: sent.error }, 'withdrawal re-send refused');
    }
    if (exhausted.length > 0) {
      await noteWait(this.database, exhausted, 'fee_bumps_exhausted');
      this.log.error({ withdrawals: exhausted }, 'withdrawal not mined after its last allowed fee bump: it waits for an operator');
    }
  }

  /** Signs and sends a replacement of `latest` (same nonce) at >= 110% of its gas price, at most the network's cap. */
  private async bump(f: Flight, latest: ChainTx, nodePrice: bigint, head: bigint, policy: FeePolicy | undefined): Promise<boolean> {
    if (!policy?.payable) return false;
    const price = replacementPrice(latest.gasPrice, nodePrice, policy.capWei);
    if (price === null) {
      this.log.warn(
        { withdrawal: f.id, gasPrice: latest.gasPrice.toString(), cap: policy.capWei?.toString() },
        'cannot replace: gas price cap reached',
      );
      return false;
    }
    const replaced = await replaceAttempt({
      database: this.database,
      client: this.client,
      account: this.hot,
      chainId: this.chainId,
      latest,
      price,
      owner: { table: 'withdrawals', id: f.id, status: 'broadcast', hashColumn: 'tx_hash' },
      purpose: 'withdrawal',
      sentHead: head,
    });
    if (!replaced) return false; // someone else moved it on
    this.log.info(
      { withdrawal: f.id, nonce: f.nonce, from: latest.gasPrice.toString(), to: price.toString(), txHash: replaced.hash },
      'withdrawal not mined in time: replaced at a higher gas price',
    );
    if (replaced.outcome === 'error' || replaced.outcome === 'underpriced') {
      this.log.warn({ withdrawal: f.id, txHash: replaced.hash, error: replaced.error }, 'replacement refused by the node');
    }
    return true;
  }

  /**
   * An operator's zero-value replacement of the nonce was mined: nothing was paid. The money
   * goes back only once it is `confirmations` deep (before, a reorg could still bring the
   * original payment back).
   */
  private async refundCancelled(f: Flight, mined: { attempt: ChainTx; receipt: { blockNumber: bigint } }, head: bigint): Promise<boolean> {
    if (head - mined.receipt.blockNumber + 1n < BigInt(f.confirmations)) return false;
    const done = await inTransaction(this.database, async (q) => {
      const [w] = await q<{ status: string }>('select status from withdrawals where id = $1 for update', [f.id]);
      if (w?.status !== 'broadcast' && w?.status !== 'confirming') return false;
      const ids = f.attempts.map((a) => a.id);
      await markAttempts(q, ids, mined.attempt.id, 'mined', mined.receipt.blockNumber);
      const reason = 'replaced by an operator with a zero-value transfer: nothing was paid';
      await q(`select coffer_withdraw_refund($1, 'failed', $2, '{broadcast,confirming}', null)`, [f.id, reason]);
      return true;
    });
    if (done) this.log.warn({ withdrawal: f.id, txHash: mined.attempt.hash }, 'withdrawal cancelled on chain by an operator: refunded');
    return done;
  }

  /** The withdrawal's nonce was consumed deep on chain by a transaction that is none of its attempts: nothing was paid. */
  private async failForeignNonce(f: Flight): Promise<boolean> {
    const done = await inTransaction(this.database, async (q) => {
      const [w] = await q<{ status: string }>('select status from withdrawals where id = $1 for update', [f.id]);
      if (w?.status !== 'broadcast') return false;
      for (const a of f.attempts) await q(`update chain_txs set status = 'replaced' where id = $1`, [a.id]);
      await q(`select coffer_withdraw_refund($1, 'failed', 'nonce used by another transaction', '{broadcast}', null)`, [f.id]);
      return true;
    });
    if (done) {
      this.log.error(
        { withdrawal: f.id, nonce: f.nonce, from: this.hot.address },
        'hot wallet nonce consumed by a transaction Coffer did not sign for this withdrawal: refunded; check who uses the hot wallet key',
      );
    }
    return done;
  }

  // ---- queued -------------------------------------------------------------------------------
}
