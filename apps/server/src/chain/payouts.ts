import type { PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import type { HdWallet } from './keys.ts';
import type { Clock } from './loop-health.ts';
import { ColdWorker, type ColdWorkerOptions } from './cold.ts';
import { gasBook } from './gas-book.ts';
import { reconcile } from './reconcile.ts';
import { WithdrawalSender, type WithdrawalSenderOptions } from './sender.ts';
import { Sweeper, type SweeperOptions } from './sweeper.ts';
import type { ChainLog } from './txs.ts';

/** What the chain runtime hands its workers (structurally runtime.ts's WorkerContext). */
export interface PayoutContext {
  database: Database;
  adapter: { client: PublicClient };
  wallet: HdWallet;
  chainId: number;
  log: ChainLog;
  /** The loop's clock (ms); default Date.now. "Reconcile is due" reads time only from it. */
  clock?: Clock;
}

export interface PayoutOptions {
  sender?: Pick<WithdrawalSenderOptions, 'bumpAfterMs' | 'bumpAfterBlocks' | 'maxFeeWei' | 'batchSize'>;
  sweeper?: Pick<SweeperOptions, 'minSweep' | 'bumpAfterMs' | 'maxFeeWei' | 'maxAttempts'>;
  /**
   * Run reconcile() first in a tick when at least this long has passed since the last run
   * (it reads every deposit address's balances: not every second). Unset: never (run the
   * `chain:reconcile` command from cron instead). A drift it finds freezes the network's
   * payouts before the sender runs in the same tick.
   */
  reconcileEveryMs?: number;
  cold?: Pick<ColdWorkerOptions, 'bumpAfterMs'>;
}

export interface PayoutWorker {
  name: string;
  tick(): Promise<unknown>;
}

/**
 * The payout workers of one chain, in the order the leader must run them, serially, in one
 * loop (they share the hot wallet's nonces): gas-book, [reconcile,] sender, sweeper, cold.
 * gas-book runs before reconcile so that what is final is booked (docs/decisions/038).
 * Wiring: `startChain({ ..., workers: (ctx) => payoutWorkers(ctx) })`.
 */
export function payoutWorkers(ctx: PayoutContext, opts: PayoutOptions = {}): PayoutWorker[] {
  const { database, wallet, chainId, log } = ctx;
  const clock = ctx.clock ?? Date.now;
  const client = ctx.adapter.client;
  const sender = new WithdrawalSender({ database, client, hot: wallet.hotAccount(), chainId, log, ...opts.sender });
  const sweeper = new Sweeper({ database, client, wallet, chainId, log, ...opts.sweeper });
  const cold = new ColdWorker({ database, client, hot: wallet.hotAccount({ purpose: 'cold' }), chainId, log, ...opts.cold });
  const workers: PayoutWorker[] = [{ name: 'gas-book', tick: () => gasBook({ database, client, chainId, log }) }];
  if (opts.reconcileEveryMs !== undefined) {
    const every = opts.reconcileEveryMs;
    let last = Number.NEGATIVE_INFINITY;
    workers.push({
      name: 'reconcile',
      async tick() {
        const now = clock();
        if (now - last < every) return null;
        last = now;
        return reconcile({ database, client, wallet, chainId, log });
      },
    });
  }
  workers.push(
    { name: 'sender', tick: () => sender.tick() },
    { name: 'sweeper', tick: () => sweeper.tick() },
    { name: 'cold', tick: () => cold.tick() },
  );
  return workers;
}
