import { type Address, encodeFunctionData, erc20Abi, parseTransaction, type TransactionReceipt } from 'viem';
import { replaceAttempt, replacementPrice } from './replace.ts';
import { finish, hook, plusOne, priceUnderCap, resend, type Sweep, type SweepContext, send, TRANSFER_GAS } from './sweep-context.ts';
import { transition } from './transition.ts';
import { type ChainTx, inTransaction, markAttempts, minedAttempt, recordChainTx } from './txs.ts';

/**
 * The sweep transaction itself (deposit address -> hot wallet): ready -> sent -> done, or a
 * retry (ready again; for a token, gas again) when it reverts or its nonce is taken, given up
 * after `maxAttempts` reverts.
 */

interface SweepTx {
  to: Address;
  value: bigint;
  data?: `0x${string}`;
  gas: bigint;
  gasPrice: bigint;
  amount: bigint;
}

/** What the sweep sends now (ETH: all but the fee; token: its whole balance), or null when it cannot. */
async function planSweep(ctx: SweepContext, s: Sweep, eth: bigint): Promise<SweepTx | null> {
  if (s.native) {
    const gasPrice = await priceUnderCap(ctx, s);
    if (gasPrice === null) return null;
    const value = eth - TRANSFER_GAS * gasPrice;
    if (value <= 0n) {
      if (await finish(ctx, s, 'failed', 'balance below the cost of sweeping it')) ctx.result.failed++;
      return null;
    }
    return { to: ctx.hot.address, value, gas: TRANSFER_GAS, gasPrice, amount: value };
  }
  const args = [s.address] as const;
  const tokens = await ctx.client.readContract({ address: s.contract as Address, abi: erc20Abi, functionName: 'balanceOf', args });
  if (tokens === 0n) {
    if (await finish(ctx, s, 'done', 'nothing left to sweep')) ctx.result.done++;
    return null;
  }
  const gas = s.gasLimit as bigint;
  const gasPrice = s.gasPrice as bigint;
  if (eth < gas * gasPrice) {
    // the top-up is gone (reorg) or was spent: ask for gas again
    const last_error = 'deposit address lacks the gas for the sweep';
    await inTransaction(ctx.database, (q) =>
      transition(q, { machine: 'sweep', id: s.id, from: 'ready', to: 'gas_required', set: { last_error } }),
    );
    return null;
  }
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [ctx.hot.address, tokens] });
  return { to: s.contract as Address, value: 0n, data, gas, gasPrice, amount: tokens };
}

/** ready: sign the sweep from the deposit address, store it with the move to 'sent', broadcast it. */
export async function sendSweep(ctx: SweepContext, s: Sweep): Promise<void> {
  const account = ctx.wallet.depositAccount(s.index);
  if (account.address.toLowerCase() !== s.address.toLowerCase()) {
    throw new Error(`sweep ${s.id}: address index ${s.index} derives ${account.address}, not ${s.address}`);
  }
  const [nonce, eth, head] = await Promise.all([
    ctx.client.getTransactionCount({ address: s.address }),
    ctx.client.getBalance({ address: s.address }),
    ctx.client.getBlockNumber(),
  ]);
  const tx = await planSweep(ctx, s, eth);
  if (!tx) return;
  const signed = await inTransaction(ctx.database, async (q) => {
    const [row] = await q<{ status: string }>('select status from sweeps where id = $1 for update skip locked', [s.id]);
    if (row?.status !== 'ready') return null;
    const { to, value, data, gas, gasPrice } = tx;
    const raw = await account.signTransaction({ type: 'legacy', chainId: ctx.chainId, nonce, to, value, data, gas, gasPrice });
    const hash = await recordChainTx(q, {
      chainId: ctx.chainId,
      purpose: 'sweep',
      sweepId: s.id,
      from: s.address,
      nonce,
      raw,
      gasPrice,
      sentHead: head,
    });
    const set = { tx_hash: hash, amount: tx.amount.toString(), nonce, gas_limit: gas.toString(), gas_price: gasPrice.toString() };
    await transition(q, { machine: 'sweep', id: s.id, from: 'ready', to: 'sent', set });
    return { raw, hash };
  });
  if (!signed) return;
  ctx.result.sent++;
  ctx.log.info({ sweep: s.id, address: s.address, amount: tx.amount.toString(), txHash: signed.hash }, 'sweep sent');
  await hook(ctx, { sweepId: s.id, purpose: 'sweep', txHash: signed.hash });
  await send(ctx, signed.hash, signed.raw, s);
}

/** sent, and one attempt has a receipt: done, or retried / given up when it reverted. */
async function settleMined(ctx: SweepContext, s: Sweep, attempts: ChainTx[], mined: { attempt: ChainTx; receipt: TransactionReceipt }) {
  const ok = mined.receipt.status === 'success';
  const giveUp = !ok && s.attempts + 1 >= ctx.maxAttempts;
  await inTransaction(ctx.database, async (q) => {
    const ids = attempts.map((a) => a.id);
    await markAttempts(q, ids, mined.attempt.id, ok ? 'mined' : 'reverted', mined.receipt.blockNumber);
    if (ok) {
      await transition(q, { machine: 'sweep', id: s.id, from: 'sent', to: 'done', set: { tx_hash: mined.attempt.hash, last_error: null } });
    } else {
      const to = giveUp ? 'failed' : s.native ? 'ready' : 'gas_required';
      await transition(q, {
        machine: 'sweep',
        id: s.id,
        from: 'sent',
        to,
        set: { attempts: plusOne('attempts'), last_error: 'sweep reverted on chain' },
      });
    }
  });
  if (ok) {
    ctx.result.done++;
    ctx.log.info({ sweep: s.id, txHash: mined.attempt.hash }, 'sweep done');
  } else if (giveUp) {
    ctx.result.failed++;
    ctx.log.error({ sweep: s.id, txHash: mined.attempt.hash }, 'sweep reverted too often: given up');
  } else {
    ctx.result.retried++;
    ctx.log.warn({ sweep: s.id, txHash: mined.attempt.hash }, 'sweep reverted: retrying');
  }
}

/** An ETH sweep not mined in time: same nonce, higher price, the value lowered by the extra fee (still no dust). */
async function bumpEthSweep(ctx: SweepContext, s: Sweep, latest: ChainTx, attempts: ChainTx[]): Promise<boolean> {
  const policy = ctx.policies.get(s.networkId);
  if (!policy?.payable || attempts.length - 1 >= policy.maxBumps) return false;
  const price = replacementPrice(latest.gasPrice, await ctx.nodePrice(), policy.capWei);
  if (price === null) return false;
  const old = parseTransaction(latest.raw).value ?? 0n;
  const value = old + TRANSFER_GAS * latest.gasPrice - TRANSFER_GAS * price;
  if (value <= 0n) return false;
  const replaced = await replaceAttempt({
    database: ctx.database,
    client: ctx.client,
    account: ctx.wallet.depositAccount(s.index),
    chainId: ctx.chainId,
    latest,
    price,
    value,
    owner: { table: 'sweeps', id: s.id, status: 'sent', hashColumn: 'tx_hash' },
    ownerSet: { amount: value.toString(), gas_price: price.toString() },
    purpose: 'sweep',
  });
  return replaced !== null;
}

/** sent: mined -> done; reverted -> retry (gas again for a token); nonce gone -> sign again; stale ETH sweep -> replace. */
export async function followSweep(
  ctx: SweepContext,
  s: Sweep,
  attempts: ChainTx[],
  receipts: Map<`0x${string}`, TransactionReceipt | null>,
  addressCount: number,
): Promise<void> {
  const mined = minedAttempt(attempts, receipts);
  if (mined) return settleMined(ctx, s, attempts, mined);
  const latest = attempts[attempts.length - 1];
  if (!latest) return;
  if (addressCount > latest.nonce) {
    // the nonce was used by a transaction that is none of ours: sign the sweep again (a
    // second sweep can only move more of Coffer's own funds to the hot wallet)
    await inTransaction(ctx.database, async (q) => {
      for (const a of attempts) await q(`update chain_txs set status = 'replaced' where id = $1`, [a.id]);
      const last_error = 'sweep nonce used by another transaction';
      await transition(q, { machine: 'sweep', id: s.id, from: 'sent', to: 'ready', set: { last_error } });
    });
    ctx.result.retried++;
    return;
  }
  if (s.native && latest.ageMs >= ctx.bumpAfterMs && (await bumpEthSweep(ctx, s, latest, attempts))) {
    ctx.result.bumped++;
    return;
  }
  if (await resend(ctx, latest, s)) ctx.result.resent++;
}
