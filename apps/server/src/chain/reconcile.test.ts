import type { ReconcileData } from '@coffer/contract';
import { encodeFunctionData, erc20Abi, formatEther, type Hex, parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOT_FUNDING } from './local-chain.ts';
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
});
afterAll(async () => {
  if (env) {
    await expectAuditOk(env.database);
    await env.close();
  }
});

const run = (tolerance?: string) =>
  reconcile({ database: env.database, client: env.client, wallet: env.wallet, chainId: 31337, ...(tolerance && { tolerance }) });
const row = (data: ReconcileData, code: string) => {
  const r = data.rows.find((x) => x.code === code);
  if (!r) throw new Error(`no row for ${code}`);
  return r;
};
const FLOAT_TOKENS = '1000000';
const FLOAT_ETH = formatEther(HOT_FUNDING.ETH); // '1000'

/** ETH every Coffer transaction burned as gas (all mined attempts, from the receipts) */
async function gasSpent(): Promise<bigint> {
  const rows = await env.database.sql.query<{ tx_hash: Hex }>(`select tx_hash from chain_txs where status in ('mined', 'reverted')`);
  let total = 0n;
  for (const r of rows) {
    const receipt = await env.chain.client.getTransactionReceipt({ hash: r.tx_hash });
    total += receipt.gasUsed * receipt.effectiveGasPrice;
  }
  return total;
}
const ethDrift = async () => formatEther(HOT_FUNDING.ETH - (await gasSpent()));
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

  it('on a fresh chain: the drift is exactly the operator float in the hot wallet', async () => {
    const data = await run();
    expect(data.ok).toBe(true);
    expect(data.rows.map((r) => r.code)).toEqual(['ETH', 'USDT', 'USDC']);
    expect(row(data, 'ETH')).toMatchObject({ onChain: FLOAT_ETH, inFlight: '0', owed: '0', drift: FLOAT_ETH, tolerance: '0', ok: true });
    expect(row(data, 'USDT')).toMatchObject({ onChain: FLOAT_TOKENS, owed: '0', drift: FLOAT_TOKENS, ok: true });
  });

  it('deposits, sweeps and withdrawals move onChain and owed together: drift = float (- gas for ETH), in flight counted', async () => {
    uid = await newUser(env);
    const { address } = await depositAddressFor(env, uid);
    await creditDeposit(env, uid, 'ETH', address, '5', await env.chain.faucet(address, 'ETH', parseEther('5')));
    await creditDeposit(env, uid, 'USDT', address, '2000', await env.chain.faucet(address, 'USDT', 2_000_000_000n), 0);
    let data = await run();
    expect(row(data, 'ETH')).toMatchObject({ onChain: '1005', owed: '5', drift: FLOAT_ETH, ok: true });
    expect(row(data, 'USDT')).toMatchObject({ onChain: '1002000', owed: '2000', drift: FLOAT_TOKENS, ok: true });

    const sweeper = new Sweeper({ database: env.database, client: env.client, wallet: env.wallet, chainId: 31337 });
    for (let i = 0; i < 6; i++) await sweeper.tick();
    const sweeps = await env.database.sql.query<{ status: string }>('select status from sweeps');
    expect(sweeps.map((s) => s.status)).toEqual(['done', 'done']);
    expect(await tokenBalance(env, 'USDT', address)).toBe(0n);
    data = await run();
    expect(row(data, 'USDT')).toMatchObject({ owed: '2000', drift: FLOAT_TOKENS, ok: true });
    expect(row(data, 'ETH')).toMatchObject({ owed: '5', drift: await ethDrift(), ok: true });

    // withdrawals mined but not yet settled are in flight: the drift does not move
    const eth = await applyWithdrawal(env, uid, 'ETH', randomAddress(), '1');
    const usdt = await applyWithdrawal(env, uid, 'USDT', randomAddress(), '100');
    const sender = new WithdrawalSender({ database: env.database, client: env.client, hot: env.hot, chainId: 31337 });
    await sender.tick();
    await sender.tick();
    expect((await withdrawal(env, eth)).status).toBe('confirming');
    expect((await withdrawal(env, usdt)).status).toBe('confirming');
    data = await run();
    expect(row(data, 'ETH')).toMatchObject({ inFlight: '1', owed: '5', drift: await ethDrift(), ok: true });
    expect(row(data, 'USDT')).toMatchObject({ onChain: '1001900', inFlight: '100', owed: '2000', drift: FLOAT_TOKENS, ok: true });

    for (let i = 0; i < 3; i++) {
      await env.chain.mine(1);
      await sender.tick();
    }
    expect((await withdrawal(env, eth)).status).toBe('completed');
    expect((await withdrawal(env, usdt)).status).toBe('completed');
    data = await run();
    // owed = what the user has left (5 - 1 - 0.0005 fee) + the fee Coffer earned
    expect(row(data, 'ETH')).toMatchObject({ inFlight: '0', owed: '4', drift: await ethDrift(), ok: true });
    expect(row(data, 'USDT')).toMatchObject({ inFlight: '0', owed: '1900', drift: FLOAT_TOKENS, ok: true });
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
    // a tolerance larger than the shortfall makes it ok (it does not resolve the incident)
    expect(row(await run('10000'), 'ETH').ok).toBe(true);
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
    expect(usdt).toMatchObject({ onChain: '0', owed: '1900', drift: '-1900', ok: false });
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

  it('payoutWorkers: reconcile (when due), then the sender, then the sweeper, for the runtime loop', async () => {
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const workers = payoutWorkers(
      { database: env.database, adapter: { client: env.client }, wallet: env.wallet, chainId: 31337, log },
      { reconcileEveryMs: 60_000 },
    );
    expect(workers.map((w) => w.name)).toEqual(['reconcile', 'sender', 'sweeper']);
    const first = (await workers[0]?.tick()) as ReconcileData;
    expect(row(first, 'USDC').ok).toBe(true);
    expect(await workers[0]?.tick()).toBeNull(); // not due again yet
    for (const w of workers.slice(1)) await w.tick();
    expect(
      payoutWorkers({ database: env.database, adapter: { client: env.client }, wallet: env.wallet, chainId: 31337, log }).map(
        (w) => w.name,
      ),
    ).toEqual(['sender', 'sweeper']);
  });
});
