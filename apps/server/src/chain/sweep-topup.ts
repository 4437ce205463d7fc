import { type Address, encodeFunctionData, erc20Abi, type TransactionReceipt } from 'viem';
import { syncNonce, takeNonce } from './nonces.ts';
import { replaceAttempt, replacementPrice } from './replace.ts';
import {
  finish,
  hook,
  MAX_TOPUP_ROUNDS,
  note,
  plusOne,
  priceUnderCap,
  resend,
  type Sweep,
  type SweepContext,
  send,
  TRANSFER_GAS,
} from './sweep-context.ts';
import { transition } from './transition.ts';
import { type ChainTx, hotCommitments, inTransaction, markAttempts, minedAttempt, recordChainTx } from './txs.ts';

/**
 * The gas top-up of a token sweep (hot wallet -> deposit address, exactly gasLimit x gasPrice
 * of ETH): gas_required -> waiting_for_gas -> ready, or back to gas_required for another
 * round when the top-up reverts or its nonce is taken, at most MAX_TOPUP_ROUNDS rounds.
 */

/** gas_required: price the token transfer and top the address up (or use the ETH it has). */
export async function requestGas(ctx: SweepContext, s: Sweep): Promise<'ready' | null> {
  const contract = s.contract as Address;
  const [tokens, eth] = await Promise.all([
    ctx.client.readContract({ address: contract, abi: erc20Abi, functionName: 'balanceOf', args: [s.address] }),
    ctx.client.getBalance({ address: s.address }),
  ]);
  if (tokens === 0n) {
    if (await finish(ctx, s, 'done', 'nothing left to sweep')) ctx.result.done++;
    return null;
  }
  const gasPrice = await priceUnderCap(ctx, s);
  if (gasPrice === null) return null;
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [ctx.hot.address, tokens] });
  const estimate = await ctx.client.estimateGas({ account: s.address, to: contract, data });
  const gasLimit = (estimate * 11n + 9n) / 10n; // +10%: state may differ a little when it runs
  const need = gasLimit * gasPrice;
  const set = { gas_limit: gasLimit.toString(), gas_price: gasPrice.toString(), amount: tokens.toString() };
  if (eth >= need) {
    const moved = await inTransaction(ctx.database, (q) =>
      transition(q, { machine: 'sweep', id: s.id, from: 'gas_required', to: 'ready', set }),
    );
    if (!moved) return null;
    s.gasLimit = gasLimit;
    s.gasPrice = gasPrice;
    return 'ready';
  }

  return sendTopup(ctx, s, need, gasPrice, set);
}

/** Signs the top-up (hot wallet nonce), stores it with the move to waiting_for_gas, broadcasts it. */
async function sendTopup(ctx: SweepContext, s: Sweep, need: bigint, gasPrice: bigint, set: Record<string, string>): Promise<null> {
  const hot = ctx.hot.address;
  const [hotBalance, committed, head] = await Promise.all([
    ctx.client.getBalance({ address: hot }),
    hotCommitments(ctx.database, ctx.chainId, hot),
    ctx.client.getBlockNumber(),
    syncNonce(ctx.database, ctx.client, ctx.chainId, hot),
  ]);
  if (hotBalance - committed.native < need + TRANSFER_GAS * gasPrice) {
    await note(ctx, s, 'hot wallet has not enough ETH for the gas top-up');
    ctx.log.warn({ sweep: s.id }, 'hot wallet has not enough ETH for a gas top-up: sweep waits');
    return null;
  }
  const signed = await inTransaction(ctx.database, async (q) => {
    const [row] = await q<{ status: string }>('select status from sweeps where id = $1 for update skip locked', [s.id]);
    if (row?.status !== 'gas_required') return null;
    const nonce = await takeNonce(q, ctx.chainId, hot);
    // the hint lets a separate signer derive the deposit address itself (docs/decisions/039-separate-signer.md)
    const raw = await ctx.wallet.hotAccount({ purpose: 'gas_topup', depositIndex: s.index }).signTransaction({
      type: 'legacy',
      chainId: ctx.chainId,
      nonce,
      to: s.address,
      value: need,
      gas: TRANSFER_GAS,
      gasPrice,
    });
    const hash = await recordChainTx(q, {
      chainId: ctx.chainId,
      purpose: 'gas_topup',
      sweepId: s.id,
      from: hot,
      nonce,
      raw,
      gasPrice,
      sentHead: head,
    });
    const moved = await transition(q, {
      machine: 'sweep',
      id: s.id,
      from: 'gas_required',
      to: 'waiting_for_gas',
      set: { ...set, gas_tx_hash: hash },
    });
    if (!moved) throw new Error(`sweep ${s.id} moved while locked`); // rolls the nonce back
    return { raw, hash };
  });
  if (!signed) return null;
  ctx.result.toppedUp++;
  ctx.log.info({ sweep: s.id, address: s.address, value: need.toString(), txHash: signed.hash }, 'gas top-up sent');
  await hook(ctx, { sweepId: s.id, purpose: 'gas_topup', txHash: signed.hash });
  await send(ctx, signed.hash, signed.raw, s);
  return null;
}

/** Another top-up round (the last one reverted or lost its nonce), or failed after MAX_TOPUP_ROUNDS. */
async function retryTopup(
  ctx: SweepContext,
  s: Sweep,
  attempts: ChainTx[],
  why: string,
  mined?: { id: number; ok: boolean; block: bigint },
) {
  const giveUp = s.topupRounds + 1 >= MAX_TOPUP_ROUNDS;
  await inTransaction(ctx.database, async (q) => {
    const ids = attempts.map((a) => a.id);
    if (mined) await markAttempts(q, ids, mined.id, mined.ok ? 'mined' : 'reverted', mined.block);
    else for (const id of ids) await q(`update chain_txs set status = 'replaced' where id = $1`, [id]);
    const to = giveUp ? 'failed' : 'gas_required';
    const last = giveUp ? `${why}; gave up after ${MAX_TOPUP_ROUNDS} top-up rounds` : why;
    await transition(q, {
      machine: 'sweep',
      id: s.id,
      from: 'waiting_for_gas',
      to,
      set: { topup_rounds: plusOne('topup_rounds'), last_error: last },
    });
  });
  if (giveUp) {
    ctx.result.failed++;
    ctx.log.error({ sweep: s.id, rounds: MAX_TOPUP_ROUNDS }, `gas top-up: ${why}; sweep given up`);
  } else ctx.result.retried++;
}

/** waiting_for_gas: the top-up mined -> ready; lost or reverted -> another round; else re-send / replace it. */
export async function followTopup(
  ctx: SweepContext,
  s: Sweep,
  attempts: ChainTx[],
  receipts: Map<`0x${string}`, TransactionReceipt | null>,
  hotCount: number,
): Promise<'ready' | null> {
  const mined = minedAttempt(attempts, receipts);
  if (mined) {
    const block = mined.receipt.blockNumber;
    if (mined.receipt.status !== 'success') {
      await retryTopup(ctx, s, attempts, 'gas top-up reverted', { id: mined.attempt.id, ok: false, block });
      return null;
    }
    const moved = await inTransaction(ctx.database, async (q) => {
      await markAttempts(
        q,
        attempts.map((a) => a.id),
        mined.attempt.id,
        'mined',
        block,
      );
      return transition(q, { machine: 'sweep', id: s.id, from: 'waiting_for_gas', to: 'ready', set: { gas_tx_hash: mined.attempt.hash } });
    });
    return moved ? 'ready' : null;
  }
  const latest = attempts[attempts.length - 1];
  if (!latest) return null;
  if (hotCount > latest.nonce) {
    // the hot wallet's nonce went by without any of our top-ups: top up again
    await retryTopup(ctx, s, attempts, 'gas top-up nonce used by another transaction');
    return null;
  }
  const policy = ctx.policies.get(s.networkId);
  if (latest.ageMs >= ctx.bumpAfterMs && policy?.payable && attempts.length - 1 < policy.maxBumps) {
    const price = replacementPrice(latest.gasPrice, await ctx.nodePrice(), policy.capWei);
    if (price !== null) {
      const replaced = await replaceAttempt({
        database: ctx.database,
        client: ctx.client,
        account: ctx.wallet.hotAccount({ purpose: 'gas_topup', depositIndex: s.index }),
        chainId: ctx.chainId,
        latest,
        price,
        owner: { table: 'sweeps', id: s.id, status: 'waiting_for_gas', hashColumn: 'gas_tx_hash' },
        purpose: 'gas_topup',
      });
      if (replaced) {
        ctx.result.bumped++;
        return null;
      }
    }
  }
  if (await resend(ctx, latest, s)) ctx.result.resent++;
  return null;
}
