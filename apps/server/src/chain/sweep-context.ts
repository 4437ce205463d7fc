import { type Address, getAddress, type Hex, type LocalAccount, type PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import { type FeePolicy, underCap } from './fee-policy.ts';
import type { HdWallet } from './keys.ts';
import type { SweepStatus } from './state-machines.ts';
import { sqlExpr, transition } from './transition.ts';
import { broadcast, type ChainLog, type ChainTx, inTransaction, mayBroadcast, noteBroadcast } from './txs.ts';

/**
 * What the sweeper's steps share (sweeper.ts runs them; sweep-discover.ts, sweep-topup.ts and
 * sweep-send.ts hold them): the tick's context, one open sweep, and the small writes every
 * step does. Statuses move only through transition() (docs/decisions/037).
 */

export interface SweeperTickResult {
  /** deposit addresses whose balance was read after a new credit */
  checked: number;
  /** sweeps created */
  created: number;
  /** gas top-ups signed and sent (hot wallet -> deposit address) */
  toppedUp: number;
  /** sweep transactions signed and sent (deposit address -> hot wallet) */
  sent: number;
  /** sweeps mined (done) */
  done: number;
  /** reverted sweeps retried (or top-ups lost) */
  retried: number;
  /** sweeps given up */
  failed: number;
  /** stored transactions sent again */
  resent: number;
  /** replacements at a higher gas price */
  bumped: number;
}

export const emptySweeperResult = (): SweeperTickResult => ({
  checked: 0,
  created: 0,
  toppedUp: 0,
  sent: 0,
  done: 0,
  retried: 0,
  failed: 0,
  resent: 0,
  bumped: 0,
});

export interface Sweep {
  id: number;
  networkId: number;
  address: Address;
  index: number;
  status: SweepStatus;
  attempts: number;
  topupRounds: number;
  gasLimit: bigint | null;
  gasPrice: bigint | null;
  nonce: number | null;
  native: boolean;
  contract: Address | null;
  code: string;
}

export type AfterCommit = (info: { sweepId: number; purpose: 'sweep' | 'gas_topup'; txHash: string }) => void | Promise<void>;

export interface SweepContext {
  database: Database;
  client: PublicClient;
  wallet: HdWallet;
  hot: LocalAccount;
  chainId: number;
  log: ChainLog;
  bumpAfterMs: number;
  /** reverted sweeps before one is given up */
  maxAttempts: number;
  /** this tick's fee policy per network id */
  policies: Map<number, FeePolicy>;
  /** the node's gas price, read at most once a tick */
  nodePrice(): Promise<bigint>;
  afterCommit?: AfterCommit;
  result: SweeperTickResult;
}

/** Gas of a plain ETH transfer to an account without code. */
export const TRANSFER_GAS = 21_000n;

/**
 * Lost or reverted gas top-up rounds of one sweep before it is given up ('failed', an
 * operator looks): a top-up costs the hot wallet gas every round, so it is never retried for ever.
 */
export const MAX_TOPUP_ROUNDS = 5;

/** The node's price if the sweep's network may sign at it, else null (the step waits, noted on the sweep). */
export async function priceUnderCap(ctx: SweepContext, s: Sweep): Promise<bigint | null> {
  const price = await ctx.nodePrice();
  if (underCap(ctx.policies.get(s.networkId), price)) return price;
  await note(ctx, s, `gas price ${price} above the cap`);
  return null;
}

/** An exception of the afterCommit test hook: a simulated crash, never swallowed by the retry logic. */
export class HookAbort extends Error {
  constructor(readonly original: unknown) {
    super('afterCommit hook aborted the tick');
  }
}

export async function hook(ctx: SweepContext, info: Parameters<AfterCommit>[0]): Promise<void> {
  try {
    await ctx.afterCommit?.(info);
  } catch (err) {
    throw new HookAbort(err);
  }
}

/** Broadcasts a freshly stored transaction; a refusal is noted (the stored bytes are re-sent later). */
export async function send(ctx: SweepContext, hash: string, raw: Hex, s: Sweep): Promise<void> {
  const sent = await broadcast(ctx.client, raw);
  if (sent.outcome === 'sent' || sent.outcome === 'known') return;
  const [row] = await ctx.database.sql.query<{ id: number }>('select id from chain_txs where chain_id = $1 and tx_hash = $2', [
    ctx.chainId,
    hash,
  ]);
  if (row) await noteBroadcast(ctx.database, Number(row.id), sent);
  if (sent.outcome === 'error') {
    await note(ctx, s, `broadcast refused: ${sent.error}`);
    ctx.log.warn({ sweep: s.id, txHash: hash, error: sent.error }, 'sweep transaction refused; re-sent later');
  }
}

/** Re-sends the latest stored attempt unless it is backing off after refusals; true when the node took it anew. */
export async function resend(ctx: SweepContext, latest: ChainTx, s: Sweep): Promise<boolean> {
  if (!mayBroadcast(latest)) return false;
  const sent = await broadcast(ctx.client, latest.raw);
  await noteBroadcast(ctx.database, latest.id, sent);
  if (sent.outcome === 'error') await note(ctx, s, `broadcast refused: ${sent.error}`);
  return sent.outcome === 'sent';
}

export async function note(ctx: SweepContext, s: Sweep, error: string): Promise<void> {
  await ctx.database.sql.query('update sweeps set last_error = $2, updated_at = now() where id = $1', [s.id, error.slice(0, 500)]);
}

/** A sweep ends before anything was sent: done (nothing left) or failed. */
export async function finish(ctx: SweepContext, s: Sweep, to: 'done' | 'failed', why: string): Promise<boolean> {
  return inTransaction(ctx.database, (q) => transition(q, { machine: 'sweep', id: s.id, from: s.status, to, set: { last_error: why } }));
}

/** attempts = attempts + 1, as a column of a move */
export const plusOne = (column: string) => sqlExpr(`${column} + 1`);

export const checksummed = (a: string): Address => getAddress(a);
