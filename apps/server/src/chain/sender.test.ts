import { type Hex, parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyWithdrawal,
  attemptsOf,
  balances,
  expectAuditOk,
  newUser,
  type PayoutEnv,
  randomAddress,
  setAutomine,
  setupPayoutEnv,
  tokenBalance,
  userEvents,
  withdrawal,
} from './payout-test-support.ts';
import { WithdrawalSender, type WithdrawalSenderOptions } from './sender.ts';
import { bumpedGasPrice, toBaseUnits } from './txs.ts';

let env: PayoutEnv;
beforeAll(async () => {
  env = await setupPayoutEnv();
});
afterAll(async () => {
  if (env) {
    await expectAuditOk(env.database);
    await env.close();
  }
});

const sender = (opts: Partial<WithdrawalSenderOptions> = {}) =>
  new WithdrawalSender({ database: env.database, client: env.client, hot: env.hot, chainId: 31337, ...opts });
/** exact decimal difference a - b, in units of 1e-18 */
const diff = (a: string, b: string) => parseUnits(a, 18) - parseUnits(b, 18);

/** ticks (mining `mine` blocks before each) until the withdrawal reaches `status` */
async function tickUntil(s: WithdrawalSender, id: number, status: string, opts: { mine?: number; max?: number } = {}) {
  for (let i = 0; i < (opts.max ?? 10); i++) {
    if ((await withdrawal(env, id)).status === status) return;
    if (opts.mine) await env.chain.mine(opts.mine);
    await s.tick();
  }
  expect((await withdrawal(env, id)).status).toBe(status);
}

describe('bumpedGasPrice (the +10% replacement rule geth enforces and anvil does not)', () => {
  it('is at least 110% of the old price, strictly above it, and at least the node price', () => {
    for (const old of [1n, 2n, 9n, 10n, 11n, 99n, 100n, 101n, 1_594_051_116n, 10n ** 20n + 7n]) {
      const p = bumpedGasPrice(old, 0n);
      expect(p * 100n >= old * 110n, `${old} -> ${p}`).toBe(true);
      expect(p > old).toBe(true);
      // never more than one wei above the exact 110% (rounded up)
      expect(p <= (old * 110n) / 100n + 1n || p === old + 1n).toBe(true);
      expect(bumpedGasPrice(old, old * 2n)).toBe(old * 2n);
    }
  });
});

describe('toBaseUnits', () => {
  it('is exact and refuses more decimals than the token has', () => {
    expect(toBaseUnits('1.500000000000000000', 6)).toBe(1_500_000n);
    expect(toBaseUnits('0.000000000000000001', 18)).toBe(1n);
    expect(toBaseUnits('100', 6)).toBe(100_000_000n);
    expect(() => toBaseUnits('1.0000001', 6)).toThrow(/decimals/);
  });
});

describe('WithdrawalSender on anvil', () => {
  it('pays an ETH withdrawal: queued -> broadcast -> confirming -> completed, ledger and chain agree', async () => {
    const uid = await newUser(env, { ETH: '10' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, uid, 'ETH', to, '1.5');
    const before = await balances(env, uid, 'ETH');
    expect(before.frozen).toBe('1.5005');
    const s = sender();

    const r1 = await s.tick();
    expect(r1.signed).toBe(1);
    const w1 = await withdrawal(env, id);
    expect(w1.status).toBe('broadcast');
    expect(w1.nonce).toBe(0);
    const [attempt] = await attemptsOf(env, id);
    expect(attempt?.tx_hash).toBe(w1.tx_hash);
    expect(attempt?.purpose).toBe('withdrawal');

    await s.tick(); // automine mined it: 1 confirmation
    const w2 = await withdrawal(env, id);
    expect(w2.status).toBe('confirming');
    expect(w2.block_number).toBeGreaterThan(0);

    await env.chain.mine(1);
    await s.tick(); // 2 of 3
    expect((await withdrawal(env, id)).status).toBe('confirming');
    await env.chain.mine(1);
    await s.tick();
    expect((await withdrawal(env, id)).status).toBe('completed');

    expect(await env.chain.client.getBalance({ address: to })).toBe(parseEther('1.5'));
    const after = await balances(env, uid, 'ETH');
    expect(after.available).toBe('8.4995');
    expect(after.frozen).toBe('0');
    expect(diff(after.world, before.world)).toBe(parseUnits('1.5', 18));
    expect(diff(after.fees, before.fees)).toBe(parseUnits('0.0005', 18));
    expect(await userEvents(env, id)).toEqual(['broadcast', 'confirming', 'completed']);
    expect((await attemptsOf(env, id)).map((a) => a.status)).toEqual(['mined']);
  });

  it('pays a USDT withdrawal (ERC-20 transfer in base units)', async () => {
    const uid = await newUser(env, { USDT: '500' });
    const to = randomAddress();
    const hotBefore = await tokenBalance(env, 'USDT', env.hot.address);
    const id = await applyWithdrawal(env, uid, 'USDT', to, '123.456789');
    const s = sender();
    await tickUntil(s, id, 'completed', { mine: 1 });
    expect(await tokenBalance(env, 'USDT', to)).toBe(123_456_789n);
    expect(hotBefore - (await tokenBalance(env, 'USDT', env.hot.address))).toBe(123_456_789n);
    const after = await balances(env, uid, 'USDT');
    expect(after.available).toBe('375.543211'); // 500 - 123.456789 - 1 fee
    expect(after.frozen).toBe('0');
    expect(await userEvents(env, id)).toEqual(['broadcast', 'confirming', 'completed']);
  });

  it('refunds a token withdrawal the contract refuses before anything is signed', async () => {
    const uid = await newUser(env, { USDT: '100' });
    const to = randomAddress();
    await env.chain.setBlocked('USDT', to, true);
    const id = await applyWithdrawal(env, uid, 'USDT', to, '10');
    const r = await sender().tick();
    expect(r.failed).toBe(1);
    const w = await withdrawal(env, id);
    expect(w.status).toBe('failed');
    expect(w.reason).toMatch(/refused by the token contract/);
    expect(await attemptsOf(env, id)).toEqual([]);
    expect(await balances(env, uid, 'USDT')).toMatchObject({ available: '100', frozen: '0' });
    expect(await userEvents(env, id)).toEqual(['failed']);
  });

  it('refunds a token transfer that reverts on chain (blocked after signing), once it is N deep', async () => {
    const uid = await newUser(env, { USDT: '100' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, uid, 'USDT', to, '20');
    const crashing = sender({
      afterCommit: () => {
        throw new Error('crash before broadcast');
      },
    });
    await expect(crashing.tick()).rejects.toThrow(/crash before broadcast/);
    expect((await withdrawal(env, id)).status).toBe('broadcast');
    await env.chain.setBlocked('USDT', to, true);

    const s = sender();
    const r = await s.tick(); // re-sends the stored transaction; it reverts
    expect(r.resent).toBe(1);
    await s.tick();
    const w = await withdrawal(env, id);
    expect(w.status).toBe('confirming'); // a revert waits for N confirmations too (a reorg could undo it)
    await tickUntil(s, id, 'failed', { mine: 1 });
    expect((await withdrawal(env, id)).reason).toBe('reverted on chain');
    expect((await attemptsOf(env, id)).map((a) => a.status)).toEqual(['reverted']);
    expect(await tokenBalance(env, 'USDT', to)).toBe(0n);
    expect(await balances(env, uid, 'USDT')).toMatchObject({ available: '100', frozen: '0' });
    expect(await userEvents(env, id)).toEqual(['broadcast', 'confirming', 'failed']);
  });

  it('survives a crash between commit and broadcast: a new sender re-sends the same signed bytes, one payment', async () => {
    const uid = await newUser(env, { ETH: '5' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, uid, 'ETH', to, '0.25');
    const countBefore = await env.chain.client.getTransactionCount({ address: env.hot.address });
    const crashing = sender({
      afterCommit: () => {
        throw new Error('power cut');
      },
    });
    await expect(crashing.tick()).rejects.toThrow(/power cut/);
    const w = await withdrawal(env, id);
    expect(w.status).toBe('broadcast');
    // nothing reached the chain
    expect(await env.chain.client.getTransactionCount({ address: env.hot.address, blockTag: 'pending' })).toBe(countBefore);
    expect(await env.chain.client.getBalance({ address: to })).toBe(0n);

    const fresh = sender({ bumpAfterMs: 600_000 });
    const r = await fresh.tick();
    expect(r.resent).toBe(1);
    expect(r.signed).toBe(0);
    const attempts = await attemptsOf(env, id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.tx_hash).toBe(w.tx_hash);
    const tx = await env.chain.client.getTransaction({ hash: w.tx_hash as Hex });
    expect(tx.nonce).toBe(w.nonce);
    await tickUntil(fresh, id, 'completed', { mine: 1 });
    for (let i = 0; i < 3; i++) {
      const again = await fresh.tick();
      expect(again.resent + again.signed + again.bumped).toBe(0);
    }
    expect(await env.chain.client.getBalance({ address: to })).toBe(parseEther('0.25'));
    expect(await env.chain.client.getTransactionCount({ address: env.hot.address })).toBe(countBefore + 1);
  });

  it('replaces a stuck transaction at >= 110% gas price; only the replacement pays', async () => {
    const uid = await newUser(env, { USDT: '100' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, uid, 'USDT', to, '40');
    await setAutomine(env, false);
    try {
      const s = sender({ bumpAfterMs: 60_000 });
      await s.tick();
      const [first] = await attemptsOf(env, id);
      const again = await s.tick(); // too early to bump: re-sent, the node knows it
      expect(again.bumped).toBe(0);
      // A minute passes (the attempt's age is on the database clock): no sleep.
      await env.database.sql.query(`update chain_txs set created_at = created_at - interval '61 seconds' where withdrawal_id = $1`, [id]);
      const r = await s.tick();
      expect(r.bumped).toBe(1);
      const attempts = await attemptsOf(env, id);
      expect(attempts).toHaveLength(2);
      const [a1, a2] = attempts as [(typeof attempts)[0], (typeof attempts)[0]];
      expect(a2.nonce).toBe(a1.nonce);
      const oldPrice = BigInt(a1.gas_price);
      const newPrice = BigInt(a2.gas_price);
      expect(newPrice * 100n >= oldPrice * 110n).toBe(true);
      console.log(`fee bump measured on anvil: ${oldPrice} -> ${newPrice} wei (${(newPrice * 10000n) / oldPrice} / 10000)`);
      expect((await withdrawal(env, id)).tx_hash).toBe(a2.tx_hash);
      expect(first?.tx_hash).toBe(a1.tx_hash);

      await env.chain.mine(1);
      await s.tick();
      const w = await withdrawal(env, id);
      expect(w.status).toBe('confirming');
      expect(w.tx_hash).toBe(a2.tx_hash);
      expect((await attemptsOf(env, id)).map((a) => a.status)).toEqual(['replaced', 'mined']);
      await tickUntil(s, id, 'completed', { mine: 1 });
      expect(await tokenBalance(env, 'USDT', to)).toBe(40_000_000n);
      const receipt = await env.chain.client.getTransactionReceipt({ hash: a2.tx_hash });
      expect(receipt.effectiveGasPrice).toBe(newPrice);
    } finally {
      await setAutomine(env, true);
    }
  });

  it('re-sends a transaction the node dropped (same hash)', async () => {
    const uid = await newUser(env, { ETH: '1' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, uid, 'ETH', to, '0.1');
    await setAutomine(env, false);
    try {
      const s = sender({ bumpAfterMs: 600_000 });
      await s.tick();
      const w = await withdrawal(env, id);
      await env.rpc('anvil_dropTransaction', [w.tx_hash]);
      await env.chain.mine(1);
      expect(await env.chain.client.getBalance({ address: to })).toBe(0n);
      const r = await s.tick();
      expect(r.resent).toBe(1);
      await tickUntil(s, id, 'completed', { mine: 1 });
      expect(await attemptsOf(env, id)).toHaveLength(1);
      expect((await withdrawal(env, id)).tx_hash).toBe(w.tx_hash);
      expect(await env.chain.client.getBalance({ address: to })).toBe(parseEther('0.1'));
    } finally {
      await setAutomine(env, true);
    }
  });

  it('replaces after bumpAfterBlocks new blocks as well (the original dropped meanwhile)', async () => {
    const uid = await newUser(env, { ETH: '1' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, uid, 'ETH', to, '0.2');
    await setAutomine(env, false);
    try {
      const s = sender({ bumpAfterMs: 600_000, bumpAfterBlocks: 2 });
      await s.tick();
      const w = await withdrawal(env, id);
      await env.rpc('anvil_dropTransaction', [w.tx_hash]);
      await env.chain.mine(1);
      expect((await s.tick()).bumped).toBe(0); // one block: re-sent
      await env.rpc('anvil_dropTransaction', [w.tx_hash]);
      await env.chain.mine(1);
      expect((await s.tick()).bumped).toBe(1); // two blocks since it was signed
      await tickUntil(s, id, 'completed', { mine: 1 });
      const attempts = await attemptsOf(env, id);
      expect(attempts.map((a) => a.status)).toEqual(['replaced', 'mined']);
      expect(await env.chain.client.getBalance({ address: to })).toBe(parseEther('0.2'));
    } finally {
      await setAutomine(env, true);
    }
  });

  it('signs nothing while the node asks more than maxFeeWei', async () => {
    const uid = await newUser(env, { ETH: '1' });
    const id = await applyWithdrawal(env, uid, 'ETH', randomAddress(), '0.3');
    const r = await sender({ maxFeeWei: 1n }).tick();
    expect(r.signed).toBe(0);
    expect(r.waiting).toBe(1);
    expect((await withdrawal(env, id)).status).toBe('queued');
    await tickUntil(sender(), id, 'completed', { mine: 1 });
  });

  it('goes back to broadcast when the mined block is reorged out, re-sends, and pays once', async () => {
    const uid = await newUser(env, { USDT: '100' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, uid, 'USDT', to, '7');
    await setAutomine(env, false);
    try {
      const snapshot = await env.rpc('evm_snapshot');
      const s = sender({ bumpAfterMs: 600_000 });
      await s.tick();
      await env.chain.mine(1);
      await s.tick();
      const mined = await withdrawal(env, id);
      expect(mined.status).toBe('confirming');
      // the block with the payment disappears (and anvil's revert empties the pool too)
      await env.rpc('evm_revert', [snapshot]);
      await env.chain.mine(2);
      const r = await s.tick();
      expect(r.reorged).toBe(1);
      expect(r.resent).toBe(1);
      const back = await withdrawal(env, id);
      expect(back.status).toBe('broadcast');
      expect(back.block_number).toBeNull();
      expect(back.tx_hash).toBe(mined.tx_hash);
      await tickUntil(s, id, 'completed', { mine: 1 });
      expect(await tokenBalance(env, 'USDT', to)).toBe(7_000_000n);
      expect(await userEvents(env, id)).toEqual(['broadcast', 'confirming', 'broadcast', 'confirming', 'completed']);
    } finally {
      await setAutomine(env, true);
    }
  });

  it('pays 20 queued withdrawals (ETH and USDT) from two concurrent senders with consecutive nonces, each once', async () => {
    const uid = await newUser(env, { ETH: '10', USDT: '1000' });
    const jobs = Array.from({ length: 20 }, (_, i) => ({
      code: i % 2 === 0 ? ('ETH' as const) : ('USDT' as const),
      to: randomAddress(),
      amount: i % 2 === 0 ? `0.0${i + 10}` : `${i + 2}`,
    }));
    const ids = await Promise.all(jobs.map((j) => applyWithdrawal(env, uid, j.code, j.to, j.amount)));
    const pendingBefore = await env.chain.client.getTransactionCount({ address: env.hot.address, blockTag: 'pending' });
    const [r1, r2] = await Promise.all([sender().tick(), sender().tick()]);
    expect(r1.signed + r2.signed).toBe(20);
    const rows = await Promise.all(ids.map((id) => withdrawal(env, id)));
    const nonces = rows.map((w) => w.nonce as number).sort((a, b) => a - b);
    expect(nonces).toEqual(Array.from({ length: 20 }, (_, i) => pendingBefore + i));
    const s = sender();
    for (let i = 0; i < 6 && (await Promise.all(ids.map((id) => withdrawal(env, id)))).some((w) => w.status !== 'completed'); i++) {
      await env.chain.mine(1);
      await s.tick();
    }
    for (const [i, id] of ids.entries()) {
      expect((await withdrawal(env, id)).status).toBe('completed');
      expect(await attemptsOf(env, id)).toHaveLength(1);
      const j = jobs[i] as (typeof jobs)[0];
      const got = j.code === 'ETH' ? await env.chain.client.getBalance({ address: j.to }) : await tokenBalance(env, 'USDT', j.to);
      expect(got).toBe(parseUnits(j.amount, j.code === 'ETH' ? 18 : 6));
    }
    expect(await env.chain.client.getTransactionCount({ address: env.hot.address })).toBe(pendingBefore + 20);
  });

  it('leaves withdrawals queued while the hot wallet is short, and pays once it is refilled', async () => {
    const uid = await newUser(env, { ETH: '3' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, uid, 'ETH', to, '2');
    const balance = await env.chain.client.getBalance({ address: env.hot.address });
    await env.rpc('anvil_setBalance', [env.hot.address, `0x${parseEther('1').toString(16)}`]);
    const s = sender();
    const r = await s.tick();
    expect(r.waiting).toBe(1);
    expect((await withdrawal(env, id)).status).toBe('queued');
    await env.rpc('anvil_setBalance', [env.hot.address, `0x${balance.toString(16)}`]);
    await tickUntil(s, id, 'completed', { mine: 1 });
    expect(await env.chain.client.getBalance({ address: to })).toBe(parseEther('2'));
  });

  it('does not pay on a network with an open incident (payouts frozen)', async () => {
    const uid = await newUser(env, { USDC: '50' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, uid, 'USDC', to, '5');
    const [inc] = await env.database.sql.query<{ id: number }>(
      `insert into chain_incidents (network_id, chain_id, kind, detail) values ($1, 31337, 'reconcile_drift', 'test') returning id`,
      [env.nets.USDC],
    );
    const s = sender();
    const r = await s.tick();
    expect(r.signed).toBe(0);
    expect((await withdrawal(env, id)).status).toBe('queued');
    await env.database.sql.query('update chain_incidents set resolved_at = now() where id = $1', [inc?.id]);
    await tickUntil(s, id, 'completed', { mine: 1 });
    expect(await tokenBalance(env, 'USDC', to)).toBe(5_000_000n);
  });

  it('makes no RPC call when idle', async () => {
    const s = sender();
    await s.tick();
    const before = env.rpcCalls();
    const r = await s.tick();
    expect(env.rpcCalls() - before).toBe(0);
    expect(Object.values(r).every((v) => v === 0)).toBe(true);
  });
});
