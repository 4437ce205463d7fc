import type { ReconcileData } from '@coffer/contract';
import { encodeFunctionData, erc20Abi, formatUnits, parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookGenesisFunding } from './funding.ts';
import { gasBook } from './gas-book.ts';
import {
  applyWithdrawal,
  creditDeposit,
  depositAddressFor,
  expectAuditOk,
  newUser,
  type PayoutEnv,
  randomAddress,
  setupPayoutEnv,
  tokenBalance,
  withdrawal,
} from './payout-test-support.ts';
import { payoutWorkers } from './payouts.ts';
import { reconcile } from './reconcile.ts';
import { WithdrawalSender } from './sender.ts';
import { Sweeper } from './sweeper.ts';

let env: PayoutEnv;
beforeAll(async () => {
  env = await setupPayoutEnv();
  // the local chain's funding of the hot wallet: 1000 ETH, 1,000,000 USDT and USDC, booked as float
  expect(await bookGenesisFunding(env.database, env.client, 31337, env.hot.address, env.chain.hotFunding)).toBe(3);
});
afterAll(async () => {
  if (env) {
    await expectAuditOk(env.database);
    await env.close();
  }
});

const run = () => reconcile({ database: env.database, client: env.client, wallet: env.wallet, chainId: 31337 });
const book = () => gasBook({ database: env.database, client: env.client, chainId: 31337 });
const row = (data: ReconcileData, code: string) => {
  const r = data.rows.find((x) => x.code === code);
  if (!r) throw new Error(`no row for ${code}`);
  return r;
};
const FLOAT_TOKENS = '1000000';
const FLOAT_ETH = '1000';
/** gas of every mined or reverted Coffer transaction (receipts) in wei, and how many are booked */
async function gasSpent(): Promise<{ wei: bigint; mined: number; booked: number }> {
  const rows = await env.database.sql.query<{ tx_hash: `0x${string}`; booked: boolean }>(
    `select tx_hash, exists (select 1 from chain_gas g where g.chain_tx_id = t.id) as booked from chain_txs t where status <> 'replaced'`,
  );
  let wei = 0n;
  let mined = 0;
  for (const r of rows) {
    const receipt = await env.chain.client.getTransactionReceipt({ hash: r.tx_hash }).catch(() => null);
    if (!receipt) continue;
    mined++;
    wei += receipt.gasUsed * receipt.effectiveGasPrice;
  }
  return { wei, mined, booked: rows.filter((r) => r.booked).length };
}
async function openIncidents(code: string) {
  return env.database.sql.query<{ id: number; detail: string }>(
    `select id, detail from chain_incidents where network_id = $1 and kind = 'reconcile_drift' and resolved_at is null`,
    [env.nets[code as 'ETH']],
  );
}
const frozen = async (code: 'ETH' | 'USDT' | 'USDC') =>
  (await env.database.sql.query<{ f: boolean }>('select chain_payouts_frozen($1) as f', [env.nets[code]]))[0]?.f;

describe('reconcile on anvil', () => {
  let uid: number;

  it('on a fresh chain: the funding is the float and the drift is exactly zero; booking it again books nothing', async () => {
    const data = await run();
    expect(data.ok).toBe(true);
    expect(data.rows.map((r) => r.code)).toEqual(['ETH', 'USDT', 'USDC']);
    expect(row(data, 'ETH')).toMatchObject({
      hot: FLOAT_ETH,
      onChain: FLOAT_ETH,
      inFlight: '0',
      owed: FLOAT_ETH,
      float: FLOAT_ETH,
      drift: '0',
      ok: true,
    });
    expect(row(data, 'USDT')).toMatchObject({ onChain: FLOAT_TOKENS, owed: FLOAT_TOKENS, drift: '0', ok: true });
    expect(await bookGenesisFunding(env.database, env.client, 31337, env.hot.address, env.chain.hotFunding)).toBe(0);
    expect(await env.database.sql.query('select id from chain_fundings')).toHaveLength(3);
  });

  it('deposits, sweeps and withdrawals: drift exactly zero at every step; gas counted until booked, then booked once', async () => {
    uid = await newUser(env);
    const { address } = await depositAddressFor(env, uid);
    await creditDeposit(env, uid, 'ETH', address, '5', await env.chain.faucet(address, 'ETH', parseEther('5')));
    await creditDeposit(env, uid, 'USDT', address, '2000', await env.chain.faucet(address, 'USDT', 2_000_000_000n), 0);
    let data = await run();
    expect(row(data, 'ETH')).toMatchObject({ onChain: '1005', owed: '1005', drift: '0', ok: true });
    expect(row(data, 'USDT')).toMatchObject({ onChain: '1002000', owed: '1002000', drift: '0', ok: true });

    const sweeper = new Sweeper({ database: env.database, client: env.client, wallet: env.wallet, chainId: 31337 });
    for (let i = 0; i < 6; i++) await sweeper.tick();
    const sweeps = await env.database.sql.query<{ status: string }>('select status from sweeps');
    expect(sweeps.map((s) => s.status)).toEqual(['done', 'done']);
    expect(await tokenBalance(env, 'USDT', address)).toBe(0n);
    data = await run();
    expect(row(data, 'USDT')).toMatchObject({ owed: '1002000', drift: '0', ok: true });
    const spent = await gasSpent();
    expect(spent.mined).toBe(2); // token sweep (the address had ETH for its gas), ETH sweep
    expect(row(data, 'ETH')).toMatchObject({ gasUnbooked: formatUnits(spent.wei, 18), owed: '1005', drift: '0', ok: true });
    await env.chain.mine(3);
    expect(await book()).toEqual({ gas: 2, unclaimed: 0 });
    expect(await book()).toEqual({ gas: 0, unclaimed: 0 });
    data = await run();
    expect(row(data, 'ETH')).toMatchObject({
      gasUnbooked: '0',
      float: formatUnits(parseEther('1000') - spent.wei, 18),
      drift: '0',
      ok: true,
    });

    // withdrawals mined but not yet settled are in flight: the drift does not move
    const eth = await applyWithdrawal(env, uid, 'ETH', randomAddress(), '1');
    const usdt = await applyWithdrawal(env, uid, 'USDT', randomAddress(), '100');
    const sender = new WithdrawalSender({ database: env.database, client: env.client, hot: env.hot, chainId: 31337 });
    await sender.tick();
    await sender.tick();
    expect((await withdrawal(env, eth)).status).toBe('confirming');
    expect((await withdrawal(env, usdt)).status).toBe('confirming');
    data = await run();
    expect(row(data, 'ETH')).toMatchObject({ inFlight: '1', drift: '0', ok: true });
    expect(row(data, 'USDT')).toMatchObject({ onChain: '1001900', inFlight: '100', owed: '1002000', drift: '0', ok: true });

    for (let i = 0; i < 3; i++) {
      await env.chain.mine(1);
      await sender.tick();
    }
    expect((await withdrawal(env, eth)).status).toBe('completed');
    expect((await withdrawal(env, usdt)).status).toBe('completed');
    data = await run();
    expect(row(data, 'ETH')).toMatchObject({ inFlight: '0', drift: '0', ok: true });
    expect(row(data, 'USDT')).toMatchObject({ inFlight: '0', owed: '1001900', drift: '0', ok: true });
    await env.chain.mine(3);
    expect((await book()).gas).toBe(2); // the two payouts
    const all = await gasSpent();
    expect(all).toMatchObject({ mined: 4, booked: 4 });
    data = await run();
    expect(row(data, 'ETH')).toMatchObject({ gasUnbooked: '0', float: formatUnits(parseEther('1000') - all.wei, 18), drift: '0' });
    expect(data.ok).toBe(true);
    expect(await env.database.sql.query('select id from chain_incidents')).toEqual([]);
  });

  it("detects ETH taken from the hot wallet behind Coffer's back: incident opened once, ETH payouts frozen", async () => {
    await env.rpc('anvil_setBalance', [env.hot.address, `0x${parseEther('1').toString(16)}`]);
    const data = await run();
    expect(data.ok).toBe(false);
    const eth = row(data, 'ETH');
    expect(eth.ok).toBe(false);
    expect(parseUnits(eth.drift, 18) < 0n).toBe(true);
    expect(row(data, 'USDT').ok).toBe(true);
    const incidents = await openIncidents('ETH');
    expect(incidents).toHaveLength(1);
    expect(incidents[0]?.detail).toMatch(/drift -/);
    expect(await frozen('ETH')).toBe(true);
    expect(await frozen('USDT')).toBe(false);

    await run(); // still drifting: no second incident
    expect(await openIncidents('ETH')).toHaveLength(1);
    expect(await frozen('ETH')).toBe(true);
  });

  it('detects tokens moved out of the hot wallet with its key; Coffer keeps paying other networks after the foreign nonce', async () => {
    const hotUsdt = await tokenBalance(env, 'USDT', env.hot.address);
    const thief = randomAddress();
    // funds for gas, then a transfer signed with the hot key outside Coffer (nonce taken from the node)
    await env.rpc('anvil_setBalance', [env.hot.address, `0x${parseEther('1000').toString(16)}`]);
    const nonce = await env.chain.client.getTransactionCount({ address: env.hot.address, blockTag: 'pending' });
    const raw = await env.hot.signTransaction({
      type: 'legacy',
      chainId: 31337,
      nonce,
      to: env.chain.tokens.USDT,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [thief, hotUsdt] }),
      gas: 100_000n,
      gasPrice: await env.chain.client.getGasPrice(),
    });
    await env.chain.client.waitForTransactionReceipt({ hash: await env.chain.client.sendRawTransaction({ serializedTransaction: raw }) });
    const data = await run();
    const usdt = row(data, 'USDT');
    expect(usdt).toMatchObject({ onChain: '0', owed: '1001900', drift: `-${formatUnits(hotUsdt, 6)}`, ok: false });
    expect(await openIncidents('USDT')).toHaveLength(1);
    expect(await frozen('USDT')).toBe(true);

    // USDC is not frozen: its withdrawals still go out, on the nonce after the foreign one
    const payer = await newUser(env, { USDC: '10' });
    const to = randomAddress();
    const id = await applyWithdrawal(env, payer, 'USDC', to, '3');
    const refused = await applyWithdrawal(env, uid, 'ETH', randomAddress(), '0.1').catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error); // ETH is frozen: coffer_withdraw_apply refuses (CB012)
    const sender = new WithdrawalSender({ database: env.database, client: env.client, hot: env.hot, chainId: 31337 });
    for (let i = 0; i < 4; i++) {
      await sender.tick();
      await env.chain.mine(1);
    }
    const w = await withdrawal(env, id);
    expect(w.status).toBe('completed');
    expect(w.nonce).toBe(nonce + 1);
    expect(await tokenBalance(env, 'USDC', to)).toBe(3_000_000n);
  });

  it('payoutWorkers: gas-book, reconcile (when due), sender, sweeper, cold, for the runtime loop', async () => {
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    // The loop's clock, moved by the test: "due" is decided by it alone (decision 064).
    let now = 1_000_000;
    const workers = payoutWorkers(
      { database: env.database, adapter: { client: env.client }, wallet: env.wallet, chainId: 31337, log, clock: () => now },
      { reconcileEveryMs: 60_000 },
    );
    expect(workers.map((w) => w.name)).toEqual(['gas-book', 'reconcile', 'sender', 'sweeper', 'cold']);
    await workers[0]?.tick();
    const first = (await workers[1]?.tick()) as ReconcileData;
    // the payer's 10 USDC above were credited by an adjustment (no coins behind them): that is
    // solvency, shown on the console, not custody: no coin moved and the world account did not
    // change, so the drift is exactly zero (a custody loss is caught: reconcile-planted.test.ts)
    expect(row(first, 'USDC')).toMatchObject({ drift: '0', ok: true });
    expect(await workers[1]?.tick()).toBeNull(); // not due again yet
    now += 59_999;
    expect(await workers[1]?.tick()).toBeNull(); // a millisecond short
    now += 1;
    expect(row((await workers[1]?.tick()) as ReconcileData, 'USDC')).toMatchObject({ drift: '0', ok: true });
    expect(await workers[1]?.tick()).toBeNull(); // and not again until another minute passed
    for (const w of workers.slice(2)) await w.tick();
    expect(
      payoutWorkers({ database: env.database, adapter: { client: env.client }, wallet: env.wallet, chainId: 31337, log }).map(
        (w) => w.name,
      ),
    ).toEqual(['gas-book', 'sender', 'sweeper', 'cold']);
  });
});
