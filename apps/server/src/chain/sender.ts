import type { Hex, LocalAccount, PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import { type FeePolicy, loadFeePolicies, noteWait } from './fee-policy.ts';
import { type Flight, type FlightContext, failForeignNonce, loadFlights, refundCancelled, undoConfirming } from './sender-flight.ts';
import { sendQueued } from './sender-queued.ts';
import { replaceAttempt, replacementPrice } from './replace.ts';
import { transition } from './transition.ts';
import {
  broadcast,
  type ChainLog,
  type ChainTx,
  inTransaction,
  markAttempts,
  mayBroadcast,
  minedAttempt,
  noteBroadcast,
  receiptsOf,
  silentChainLog,
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

/**
 * Pays out withdrawals from the hot wallet (docs/product.md §9.4). One instance per chain; the chain
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

  private flightContext(): FlightContext {
    return { database: this.database, chainId: this.chainId, hot: this.hot, log: this.log };
  }

  private async follow(result: SenderTickResult): Promise<void> {
    const flights = await loadFlights(this.flightContext());
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
          if (await undoConfirming(this.flightContext(), f)) result.reorged++;
        }
        unmined.push(f);
        continue;
      }
      if (mined.attempt.cancel) {
        if (await refundCancelled(this.flightContext(), f, mined, head)) result.failed++;
        continue;
      }
      await this.followMined(f, mined, head, result);
    }
    if (unmined.length > 0) await this.push(unmined, head, result);
  }

  /** One attempt of the withdrawal has a receipt: broadcast -> confirming, and settle or refund once it is N deep. */
  private async followMined(
    f: Flight,
    mined: { attempt: ChainTx; receipt: { blockNumber: bigint; status: 'success' | 'reverted' } },
    head: bigint,
    result: SenderTickResult,
  ): Promise<void> {
    const block = mined.receipt.blockNumber;
    const success = mined.receipt.status === 'success';
    const final = head - block + 1n >= BigInt(f.confirmations);
    const outcome = success ? 'mined' : 'reverted';
    const marked = f.attempts.every((a) =>
      a.id === mined.attempt.id ? a.status === outcome && a.blockNumber === Number(block) : a.status === 'replaced',
    );
    const current = f.status === 'confirming' && f.block === Number(block) && f.txHash === mined.attempt.hash && marked;
    if (current && !final) return;
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
        if (await failForeignNonce(this.flightContext(), f)) result.failed++;
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

  // ---- queued -------------------------------------------------------------------------------
}
