import { type Hex, parseEther, parseTransaction, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvmChainAdapter } from './evm.ts';
import {
  applyWithdrawal,
  creditDeposit,
  depositAddressFor,
  expectAuditOk,
  newUser,
  type PayoutEnv,
  randomAddress,
  setAutomine,
  setupPayoutEnv,
  tokenBalance,
  withdrawal,
} from './payout-test-support.ts';
import { WithdrawalSender } from './sender.ts';
import { Sweeper, type SweeperOptions } from './sweeper.ts';
import { DepositWatcher } from './watcher.ts';

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

const sweeper = (opts: Partial<SweeperOptions> = {}) =>
  new Sweeper({ database: env.database, client: env.client, wallet: env.wallet, chainId: 31337, ...opts });

interface SweepRow {
  id: number;
  status: string;
  amount: string;
  attempts: number;
  last_error: string | null;
  gas_limit: string | null;
  gas_price: string | null;
  gas_tx_hash: Hex | null;
  tx_hash: Hex | null;
}
async function sweepsOf(address: string): Promise<SweepRow[]> {
  return env.database.sql.query<SweepRow>(
    `select id::int as id, status, amount::text as amount, attempts, last_error, gas_limit::text as gas_limit,
            gas_price::text as gas_price, gas_tx_hash, tx_hash
     from sweeps where lower(deposit_address) = lower($1) order by id`,
    [address],
  );
}
async function txsOf(sweepId: number) {
  return env.database.sql.query<{ purpose: string; tx_hash: Hex; raw_tx: Hex; status: string; nonce: number; from_address: string }>(
    'select purpose, tx_hash, raw_tx, status, nonce::int as nonce, from_address from chain_txs where sweep_id = $1 order by id',
    [sweepId],
  );
}
async function tickUntil(s: Sweeper, address: string, status: string, max = 8) {
  for (let i = 0; i < max; i++) {
    const rows = await sweepsOf(address);
    if (rows.length > 0 && rows.every((r) => r.status === status)) return;
    await s.tick();
  }
  expect((await sweepsOf(address)).map((r) => r.status)).toEqual([status]);
}
/** a user with a deposit address that received `amount` of `code` on chain, credited in the ledger */
async function deposited(code: 'ETH' | 'USDT', amount: string) {
  const uid = await newUser(env);
  const { address, index } = await depositAddressFor(env, uid);
  const units = code === 'ETH' ? parseEther(amount) : parseUnits(amount, 6);
  const hash = await env.chain.faucet(address, code, units);
  await creditDeposit(env, uid, code, address, amount, hash, code === 'ETH' ? -1 : 0);
  return { uid, address, index, units };
}

describe('Sweeper on anvil', () => {
  it('sweeps ETH with one legacy transaction that leaves exactly zero behind', async () => {
    const { address, units } = await deposited('ETH', '2');
    const hotBefore = await env.chain.client.getBalance({ address: env.hot.address });
    const s = sweeper();
    const r = await s.tick();
    expect(r.created).toBe(1);
    expect(r.sent).toBe(1);
    await tickUntil(s, address, 'done');
    expect(await env.chain.client.getBalance({ address })).toBe(0n);
    const [sweep] = await sweepsOf(address);
    const [tx] = await txsOf(sweep?.id as number);
    expect(tx?.purpose).toBe('sweep');
    expect(tx?.from_address.toLowerCase()).toBe(address.toLowerCase());
    const parsed = parseTransaction(tx?.raw_tx as Hex);
    expect(parsed.gas).toBe(21_000n);
    expect(parsed.value).toBe(units - 21_000n * (parsed.gasPrice as bigint));
    expect(sweep?.amount).toBe(parsed.value?.toString());
    expect((await env.chain.client.getBalance({ address: env.hot.address })) - hotBefore).toBe(parsed.value);
  });

  it('sweeps USDT after an exact gas top-up from the hot wallet; the watcher does not take the top-up as a deposit', async () => {
    // the real deposit watcher follows the chain all along
    const watcher = new DepositWatcher(env.database, new EvmChainAdapter({ client: env.client, xpub: env.wallet.xpub }), 31337);
    await watcher.tick();
    const uid = await newUser(env);
    const { address } = await depositAddressFor(env, uid);
    await env.chain.faucet(address, 'USDT', 750_000_000n);
    for (let i = 0; i < 6; i++) {
      await env.chain.mine(1);
      await watcher.tick();
    }
    const credited = await env.database.sql.query<{ status: string; amount: string }>(
      `select status, amount::text as amount from deposits where lower(address) = lower($1)`,
      [address],
    );
    expect(credited.map((d) => d.status)).toEqual(['credited']);
    const hotTokens = await tokenBalance(env, 'USDT', env.hot.address);

    const s = sweeper();
    const r1 = await s.tick();
    expect(r1.created).toBe(1);
    expect(r1.toppedUp).toBe(1);
    const [waiting] = await sweepsOf(address);
    expect(waiting?.status).toBe('waiting_for_gas');
    await tickUntil(s, address, 'done');

    const [sweep] = await sweepsOf(address);
    const [topup, move] = await txsOf(sweep?.id as number);
    expect(topup?.purpose).toBe('gas_topup');
    expect(topup?.from_address).toBe(env.hot.address);
    expect(move?.purpose).toBe('sweep');
    const gasLimit = BigInt(sweep?.gas_limit as string);
    const gasPrice = BigInt(sweep?.gas_price as string);
    const topupTx = parseTransaction(topup?.raw_tx as Hex);
    expect(topupTx.to?.toLowerCase()).toBe(address.toLowerCase());
    expect(topupTx.value).toBe(gasLimit * gasPrice); // exactly gasLimit x gasPrice
    const moveTx = parseTransaction(move?.raw_tx as Hex);
    expect(moveTx.gas).toBe(gasLimit);
    expect(moveTx.gasPrice).toBe((topupTx.value as bigint) / gasLimit); // price = top-up / gas limit
    expect(await tokenBalance(env, 'USDT', address)).toBe(0n);
    expect((await tokenBalance(env, 'USDT', env.hot.address)) - hotTokens).toBe(750_000_000n);
    // what is left of the top-up is the gas the transfer did not use (the refund of zeroing a balance)
    const receipt = await env.chain.client.getTransactionReceipt({ hash: move?.tx_hash as Hex });
    expect(await env.chain.client.getBalance({ address })).toBe((gasLimit - receipt.gasUsed) * gasPrice);

    for (let i = 0; i < 4; i++) {
      await env.chain.mine(1);
      await watcher.tick();
    }
    const after = await env.database.sql.query<{ tx_hash: string }>('select tx_hash from deposits where lower(address) = lower($1)', [
      address,
    ]);
    expect(after).toHaveLength(1);
    expect(after.map((d) => d.tx_hash)).not.toContain(topup?.tx_hash);
  });

  it('leaves balances below the threshold alone and reads them again only after a new credit', async () => {
    const s = sweeper({ minSweep: { USDT: '100' } });
    const { uid, address } = await deposited('USDT', '50');
    const r1 = await s.tick();
    expect(r1.checked).toBe(1);
    expect(r1.created).toBe(0);
    const before = env.rpcCalls();
    const r2 = await s.tick();
    expect(r2.checked).toBe(0);
    expect(env.rpcCalls() - before).toBe(0); // idle: no RPC call
    const hash = await env.chain.faucet(address, 'USDT', 60_000_000n);
    await creditDeposit(env, uid, 'USDT', address, '60', hash, 0);
    const r3 = await s.tick();
    expect(r3.created).toBe(1);
    await tickUntil(s, address, 'done');
    expect(await tokenBalance(env, 'USDT', address)).toBe(0n);
    const [sweep] = await sweepsOf(address);
    expect(sweep?.amount).toBe('110000000');
  });

  it('re-sends a stored top-up after a crash (one top-up on chain) and retries a sweep that reverted, counting attempts', async () => {
    const { address } = await deposited('USDT', '30');
    const crashing = sweeper({
      afterCommit: ({ purpose }) => {
        if (purpose === 'gas_topup') throw new Error('crash before broadcast');
      },
    });
    await expect(crashing.tick()).rejects.toThrow(/crash/);
    const [s0] = await sweepsOf(address);
    expect(s0?.status).toBe('waiting_for_gas');
    expect(await env.chain.client.getBalance({ address })).toBe(0n);

    // the sweep is signed but "crashes" before it is sent; then the token blocks the address
    const crashSweep = sweeper({
      afterCommit: ({ purpose }) => {
        if (purpose === 'sweep') throw new Error('crash before sweep broadcast');
      },
    });
    const r1 = await crashSweep.tick(); // re-sends the same top-up
    expect(r1.resent).toBe(1);
    const topups = (await txsOf(s0?.id as number)).filter((t) => t.purpose === 'gas_topup');
    expect(topups).toHaveLength(1);
    expect(await env.chain.client.getBalance({ address })).toBe(parseTransaction(topups[0]?.raw_tx as Hex).value);
    await expect(crashSweep.tick()).rejects.toThrow(/crash before sweep broadcast/);
    await env.chain.setBlocked('USDT', address, true);

    const s = sweeper();
    await s.tick(); // re-sends the stored sweep: it reverts
    await s.tick();
    const [s1] = await sweepsOf(address);
    expect(s1?.attempts).toBe(1);
    expect(s1?.last_error).toMatch(/reverted/);
    expect(['gas_required', 'waiting_for_gas']).toContain(s1?.status);
    await s.tick(); // still blocked: the estimate for a new top-up reverts; noted, no money moved
    expect((await sweepsOf(address))[0]?.last_error).toBeTruthy();

    await env.chain.setBlocked('USDT', address, false);
    await tickUntil(s, address, 'done');
    expect(await tokenBalance(env, 'USDT', address)).toBe(0n);
    const all = await txsOf(s0?.id as number);
    expect(all.map((t) => `${t.purpose}:${t.status}`)).toEqual(['gas_topup:mined', 'sweep:reverted', 'gas_topup:mined', 'sweep:mined']);
  });

  it('replaces a stuck ETH sweep at >= 110% with the value lowered by the extra fee (still zero dust)', async () => {
    const { address, units } = await deposited('ETH', '1');
    await setAutomine(env, false);
    try {
      const s = sweeper({ bumpAfterMs: 60_000 });
      await s.tick();
      // A minute passes (an attempt's age is on the database clock): no sleep.
      const [stuck] = await sweepsOf(address);
      await env.database.sql.query(`update chain_txs set created_at = created_at - interval '61 seconds' where sweep_id = $1`, [stuck?.id]);
      const r = await s.tick();
      expect(r.bumped).toBe(1);
      const [sweep] = await sweepsOf(address);
      const [a1, a2] = await txsOf(sweep?.id as number);
      const t1 = parseTransaction(a1?.raw_tx as Hex);
      const t2 = parseTransaction(a2?.raw_tx as Hex);
      expect(t2.nonce).toBe(t1.nonce);
      expect((t2.gasPrice as bigint) * 100n >= (t1.gasPrice as bigint) * 110n).toBe(true);
      expect((t2.value as bigint) + 21_000n * (t2.gasPrice as bigint)).toBe(units);
      await env.chain.mine(1);
    } finally {
      await setAutomine(env, true);
    }
    await tickUntil(sweeper(), address, 'done');
    expect(await env.chain.client.getBalance({ address })).toBe(0n);
  });

  it('shares the hot wallet nonce with the sender: withdrawals and top-ups in one loop get consecutive nonces', async () => {
    const payer = await newUser(env, { USDT: '100' });
    const deposits = [await deposited('USDT', '10'), await deposited('USDT', '20')];
    const ids = [
      await applyWithdrawal(env, payer, 'USDT', randomAddress(), '5'),
      await applyWithdrawal(env, payer, 'USDT', randomAddress(), '6'),
    ];
    const sender = new WithdrawalSender({ database: env.database, client: env.client, hot: env.hot, chainId: 31337 });
    const s = sweeper();
    const [{ c: before }] = (await env.database.sql.query<{ c: number }>(
      `select count(*)::int as c from chain_txs where from_address = $1 and status <> 'replaced'`,
      [env.hot.address],
    )) as [{ c: number }];
    for (let i = 0; i < 8; i++) {
      await sender.tick();
      await s.tick();
      await env.chain.mine(1);
    }
    for (const id of ids) expect((await withdrawal(env, id)).status).toBe('completed');
    for (const d of deposits) expect((await sweepsOf(d.address)).map((x) => x.status)).toEqual(['done']);
    const hotTxs = await env.database.sql.query<{ nonce: number; purpose: string }>(
      `select nonce::int as nonce, purpose from chain_txs where from_address = $1 and status <> 'replaced' order by nonce`,
      [env.hot.address],
    );
    const nonces = hotTxs.map((t) => t.nonce);
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(nonces).toEqual(Array.from({ length: nonces.length }, (_, i) => (nonces[0] as number) + i));
    expect(
      hotTxs
        .slice(before)
        .map((t) => t.purpose)
        .sort(),
    ).toEqual(['gas_topup', 'gas_topup', 'withdrawal', 'withdrawal']);
    expect(await env.chain.client.getTransactionCount({ address: env.hot.address })).toBe((nonces.at(-1) as number) + 1);
  });

  it('makes no RPC call when idle', async () => {
    const s = sweeper();
    await s.tick();
    const before = env.rpcCalls();
    const r = await s.tick();
    expect(env.rpcCalls() - before).toBe(0);
    expect(Object.values(r).every((v) => v === 0)).toBe(true);
  });
});
