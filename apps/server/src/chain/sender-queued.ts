import { encodeFunctionData, erc20Abi, getAddress, type Hex, type LocalAccount, type PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import { type FeePolicy, noteWait, underCap } from './fee-policy.ts';
import { syncNonce, takeNonce } from './nonces.ts';
import { sqlExpr, transition } from './transition.ts';
import {
  broadcast,
  type ChainLog,
  errorText,
  hotCommitments,
  inTransaction,
  isRevert,
  noteBroadcast,
  recordChainTx,
  toBaseUnits,
} from './txs.ts';

/**
 * The sender's second half (sender.ts runs it after following what is in flight): sign and
 * send the queued withdrawals the hot wallet can pay, under each network's gas price cap;
 * the others keep waiting with a reason. queued -> broadcast happens in the transaction that
 * takes the nonce and stores the signed transaction (chain_txs), broadcast after its commit.
 */

/** Gas of a plain ETH transfer to an account without code. */
export const TRANSFER_GAS = 21_000n;

export interface QueuedContext {
  database: Database;
  client: PublicClient;
  hot: LocalAccount;
  chainId: number;
  log: ChainLog;
  batchSize: number;
  policies: Map<number, FeePolicy>;
  afterCommit?: (info: { withdrawalId: number; txHash: Hex }) => void | Promise<void>;
  /** the tick's counters this half adds to */
  result: { signed: number; waiting: number; failed: number };
}

interface QueuedRow {
  id: number | string;
  user_id: number | string;
  network_id: number;
  address: string;
  amount: string;
  native: boolean;
  contract: string | null;
  token_decimals: number;
}

interface Plan {
  w: QueuedRow;
  id: number;
  units: bigint;
  to: `0x${string}`;
  value: bigint;
  data?: Hex;
}

/** What the hot wallet can still spend this tick (balances less what it has promised). */
interface Budget {
  gasPrice: bigint;
  head: bigint;
  eth: bigint;
  tokens: Map<number, bigint>;
}

export async function sendQueued(ctx: QueuedContext): Promise<void> {
  const queued = await ctx.database.sql.query<QueuedRow>(
    `select w.id, w.user_id, w.network_id, w.address, w.amount::text as amount, n.native, n.contract, n.token_decimals
     from withdrawals w join networks n on n.id = w.network_id
     where n.chain_id = $1 and w.status = 'queued' and (n.native or n.contract is not null) and not chain_payouts_frozen(n.id)
     order by w.id limit $2`,
    [ctx.chainId, ctx.batchSize],
  );
  // a real chain's network without a gas price cap pays nothing (startChain says so once)
  const payable = queued.filter((w) => ctx.policies.get(w.network_id)?.payable);
  ctx.result.waiting += queued.length - payable.length;
  if (payable.length === 0) return;
  const budget = await readBudget(ctx, payable);
  const overCap = payable.filter((w) => !underCap(ctx.policies.get(w.network_id), budget.gasPrice));
  if (overCap.length > 0) {
    ctx.result.waiting += overCap.length;
    await noteWait(
      ctx.database,
      overCap.map((w) => Number(w.id)),
      'fees_high',
    );
    ctx.log.warn({ gasPrice: budget.gasPrice.toString(), withdrawals: overCap.length }, 'gas price above the cap: withdrawals wait');
  }
  const signable = payable.filter((w) => !overCap.includes(w));
  if (signable.length > 0) await payAll(ctx, signable, budget);
}

/** The node's price and head, the hot wallet's balances less its commitments; a node failure marks them all waiting. */
async function readBudget(ctx: QueuedContext, payable: QueuedRow[]): Promise<Budget> {
  const hot = ctx.hot.address;
  const contracts = [...new Set(payable.filter((w) => !w.native).map((w) => getAddress(w.contract as string)))];
  let chain: [bigint, bigint, bigint, bigint[], unknown];
  try {
    chain = await Promise.all([
      ctx.client.getGasPrice(),
      ctx.client.getBlockNumber(),
      ctx.client.getBalance({ address: hot }),
      Promise.all(contracts.map((address) => ctx.client.readContract({ address, abi: erc20Abi, functionName: 'balanceOf', args: [hot] }))),
      syncNonce(ctx.database, ctx.client, ctx.chainId, hot),
    ]);
  } catch (err) {
    await noteWait(
      ctx.database,
      payable.map((w) => Number(w.id)),
      'node_unavailable',
    );
    ctx.result.waiting += payable.length;
    throw err;
  }
  const [gasPrice, head, ethBalance, tokenBalances] = chain;
  const committed = await hotCommitments(ctx.database, ctx.chainId, hot);
  const tokens = new Map<number, bigint>();
  for (const w of payable) {
    if (w.native || tokens.has(w.network_id)) continue;
    const balance = tokenBalances[contracts.indexOf(getAddress(w.contract as string))] ?? 0n;
    tokens.set(w.network_id, balance - (committed.tokens.get(w.network_id) ?? 0n));
  }
  return { gasPrice, head, eth: ethBalance - committed.native, tokens };
}

/** The transfer a withdrawal makes, or null when its amount has more decimals than the token. */
function planOf(ctx: QueuedContext, w: QueuedRow): Plan | null {
  const id = Number(w.id);
  let units: bigint;
  try {
    units = toBaseUnits(w.amount, w.token_decimals);
  } catch (err) {
    ctx.log.error({ withdrawal: id, error: errorText(err) }, 'withdrawal amount cannot be paid in base units');
    return null;
  }
  const to = getAddress(w.address);
  if (w.native) return { w, id, units, to, value: units };
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, units] });
  return { w, id, units, to: getAddress(w.contract as string), value: 0n, data };
}

async function payAll(ctx: QueuedContext, rows: QueuedRow[], budget: Budget): Promise<void> {
  const plans = rows.map((w) => planOf(ctx, w));
  ctx.result.waiting += plans.filter((p) => p === null).length;
  const short: number[] = [];
  const unavailable: number[] = [];
  const fits = (p: Plan, gas: bigint) =>
    budget.eth >= p.value + gas * budget.gasPrice && (p.w.native || (budget.tokens.get(p.w.network_id) ?? 0n) >= p.units);
  const affordable = plans.filter((p): p is Plan => p !== null && fits(p, TRANSFER_GAS));
  // the estimate also tells a transfer the token (or recipient) refuses
  const estimates = await Promise.all(
    affordable.map((p) =>
      ctx.client.estimateGas({ account: ctx.hot.address, to: p.to, value: p.value, data: p.data }).then(
        (gas) => ({ gas }),
        (err: unknown) => ({ err }),
      ),
    ),
  );
  for (const p of plans) {
    if (!p) continue;
    const estimate = estimates[affordable.indexOf(p)];
    if (!affordable.includes(p) || !estimate) {
      ctx.result.waiting++;
      short.push(p.id);
      continue;
    }
    if ('err' in estimate) {
      if (isRevert(estimate.err)) await failQueued(ctx, p, errorText(estimate.err));
      else {
        ctx.result.waiting++;
        unavailable.push(p.id);
        ctx.log.warn({ withdrawal: p.id, error: errorText(estimate.err) }, 'gas estimate failed: withdrawal waits');
      }
      continue;
    }
    const gasLimit = estimate.gas === TRANSFER_GAS ? TRANSFER_GAS : (estimate.gas * 12n) / 10n;
    if (!fits(p, gasLimit)) {
      ctx.result.waiting++;
      short.push(p.id);
      continue;
    }
    if (!(await signAndSend(ctx, p, gasLimit, budget))) continue; // taken by another sender, cancelled, or frozen meanwhile
    budget.eth -= p.value + gasLimit * budget.gasPrice;
    if (!p.w.native) budget.tokens.set(p.w.network_id, (budget.tokens.get(p.w.network_id) ?? 0n) - p.units);
  }
  if (short.length > 0) ctx.log.warn({ withdrawals: short }, 'hot wallet balance too low: withdrawals wait');
  await noteWait(ctx.database, short, 'hot_wallet_short');
  await noteWait(ctx.database, unavailable, 'node_unavailable');
}

/** queued -> broadcast: nonce, signature and stored attempt in one transaction, then the broadcast. */
async function signAndSend(ctx: QueuedContext, p: Plan, gasLimit: bigint, budget: Budget): Promise<boolean> {
  const { id } = p;
  const hot = ctx.hot.address;
  const gasPrice = budget.gasPrice;
  const signed = await inTransaction(ctx.database, async (q) => {
    const [w] = await q<{ status: string; frozen: boolean }>(
      'select status, chain_payouts_frozen(network_id) as frozen from withdrawals where id = $1 for update skip locked',
      [id],
    );
    if (w?.status !== 'queued' || w.frozen) return null;
    const nonce = await takeNonce(q, ctx.chainId, hot);
    const tx = { type: 'legacy', chainId: ctx.chainId, nonce, to: p.to, value: p.value, data: p.data, gas: gasLimit, gasPrice } as const;
    const raw = await ctx.hot.signTransaction(tx);
    const hash = await recordChainTx(q, {
      chainId: ctx.chainId,
      purpose: 'withdrawal',
      withdrawalId: id,
      from: hot,
      nonce,
      raw,
      gasPrice,
      sentHead: budget.head,
    });
    const set = { nonce, tx_hash: hash, broadcast_at: sqlExpr('now()'), wait_reason: null, wait_since: null };
    // it is locked and queued: a refusal here is a bug, and throwing gives the nonce back
    if (!(await transition(q, { machine: 'withdrawal', id, from: 'queued', to: 'broadcast', set })))
      throw new Error(`withdrawal ${id} moved while locked`);
    return { raw, hash, nonce };
  });
  if (!signed) return false;
  ctx.result.signed++;
  await ctx.afterCommit?.({ withdrawalId: id, txHash: signed.hash });
  const sent = await broadcast(ctx.client, signed.raw);
  if (sent.outcome !== 'sent') {
    const [row] = await ctx.database.sql.query<{ id: number }>('select id from chain_txs where chain_id = $1 and tx_hash = $2', [
      ctx.chainId,
      signed.hash,
    ]);
    if (row) await noteBroadcast(ctx.database, Number(row.id), sent);
    if (sent.outcome === 'error') {
      ctx.log.warn(
        { withdrawal: id, txHash: signed.hash, error: sent.error },
        'broadcast refused; the stored transaction is re-sent with back-off',
      );
    }
  }
  ctx.log.info({ withdrawal: id, nonce: signed.nonce, txHash: signed.hash }, 'withdrawal broadcast');
  return true;
}

/** queued -> failed with the money back (a transfer the chain would refuse; nothing signed). */
async function failQueued(ctx: QueuedContext, p: Plan, error: string): Promise<void> {
  const reason = p.w.native
    ? 'refused by the recipient (the transfer would revert)'
    : 'refused by the token contract (the transfer would revert)';
  const done = await inTransaction(ctx.database, async (q) => {
    const [w] = await q<{ status: string }>('select status from withdrawals where id = $1 for update skip locked', [p.id]);
    if (w?.status !== 'queued') return false;
    await q(`select coffer_withdraw_refund($1, 'failed', $2, '{queued}', null)`, [p.id, reason]);
    return true;
  });
  if (done) {
    ctx.result.failed++;
    ctx.log.warn({ withdrawal: p.id, error }, 'withdrawal refused before signing: refunded');
  }
}
