/**
 * Custody around the exact reconciliation (docs/decisions/038), on a real anvil: funding
 * booked once, a stranger's transfers, a deposit below the minimum, a token sweep's top-up,
 * hot -> cold above the ceiling, the below-floor alert.
 */
import type { ReconcileData } from '@coffer/contract';
import { type Address, formatUnits, parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColdWorker } from './cold.ts';
import { bookFunding, bookGenesisFunding, FundingError } from './funding.ts';
import { gasBook } from './gas-book.ts';
import {
  depositAddressFor,
  expectAuditOk,
  newUser,
  type PayoutEnv,
  randomAddress,
  setupPayoutEnv,
  tokenBalance,
} from './payout-test-support.ts';
import { reconcile } from './reconcile.ts';
import { Sweeper } from './sweeper.ts';

let env: PayoutEnv;
beforeAll(async () => {
  env = await setupPayoutEnv();
  await bookGenesisFunding(env.database, env.client, 31337, env.hot.address, env.chain.hotFunding);
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
const incidents = () => env.database.sql.query<{ id: number }>(`select id from chain_incidents where resolved_at is null`);

/**
 * The cold moves a tick broadcast, mined on the chain: anvil's automine answers the send before
 * its block is made, so on a loaded runner the next tick could look before the receipt exists.
 */
async function coldMovesMined() {
  const sent = await env.database.sql.query<{ tx_hash: string }>(
    `select tx_hash from chain_txs where purpose = 'cold' and status = 'sent'`,
  );
  for (const { tx_hash } of sent) await env.chain.client.waitForTransactionReceipt({ hash: tx_hash as `0x${string}` });
}

/** A transfer seen by the watcher below the network's minimum (status below_minimum). */
async function belowMinimum(uid: number, address: Address, wei: bigint): Promise<void> {
  const hash = await env.chain.faucet(address, 'ETH', wei);
  const receipt = await env.chain.client.waitForTransactionReceipt({ hash });
  await env.database.sql.query(
    `insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount, status)
     values ($1, $2, $3, $4, $5, $6, -1, $7, $8, $9::numeric, 'below_minimum')`,
    [
      env.nets.ETH,
      env.currencies.ETH,
      uid,
      address,
      receipt.from,
      hash,
      Number(receipt.blockNumber),
      receipt.blockHash,
      formatUnits(wei, 18),
    ],
  );
}

describe('custody booked to the wei', () => {
  it("a stranger's transfer to the hot wallet is a drift until the operator books it, once", async () => {
    const hash = await env.chain.faucet(env.hot.address, 'ETH', 123n);
    await env.chain.client.waitForTransactionReceipt({ hash });
    expect(row(await run(), 'ETH')).toMatchObject({ drift: '0.000000000000000123', ok: false });
    expect(await incidents()).toHaveLength(1);

    const refused = await bookFunding(env.database, env.client, env.hot.address, {
      networkId: env.nets.USDT,
      hash,
      reason: 'x',
      actor: 'cli:test',
    }).catch((e) => e);
    expect(refused).toBeInstanceOf(FundingError); // it paid no USDT
    const first = await bookFunding(env.database, env.client, env.hot.address, {
      networkId: env.nets.ETH,
      hash,
      reason: 'gift',
      actor: 'cli:test',
    });
    expect(first).toMatchObject({ amount: '0.000000000000000123', replayed: false });
    const again = await bookFunding(env.database, env.client, env.hot.address, {
      networkId: env.nets.ETH,
      hash,
      reason: 'gift',
      actor: 'cli:test',
    });
    expect(again).toMatchObject({ id: first.id, replayed: true });
    expect(row(await run(), 'ETH')).toMatchObject({ drift: '0', ok: true });
    const audit = await env.database.sql.query(
      `select actor, action from operator_actions where action = 'chain.fund' and actor <> 'system:local-chain'`,
    );
    expect(audit).toEqual([{ actor: 'cli:test', action: 'chain.fund' }]);
    await env.database.sql.query(`update chain_incidents set resolved_at = now(), resolution = 'booked with chain:fund'`);
  });

  it("a stranger's 1-wei deposit below the minimum is in transit, then the float's: no incident", async () => {
    const uid = await newUser(env);
    const { address } = await depositAddressFor(env, uid);
    await belowMinimum(uid, address, 1n);
    expect(row(await run(), 'ETH')).toMatchObject({ inbound: '0.000000000000000001', drift: '0', ok: true });
    await env.chain.mine(3);
    expect(await book()).toEqual({ gas: 0, unclaimed: 1 });
    expect(await book()).toEqual({ gas: 0, unclaimed: 0 });
    expect(row(await run(), 'ETH')).toMatchObject({ inbound: '0', drift: '0', ok: true });
    expect(await incidents()).toHaveLength(0);
  });

  it('a token sweep: the gas top-up and the sweep each booked once, drift zero', async () => {
    const uid = await newUser(env);
    const { address } = await depositAddressFor(env, uid);
    const hash = await env.chain.faucet(address, 'USDT', 50_000_000n);
    const receipt = await env.chain.client.waitForTransactionReceipt({ hash });
    await env.database.sql.query(
      `insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount)
       values ($1, $2, $3, $4, $5, $6, 0, $7, $8, 50)`,
      [env.nets.USDT, env.currencies.USDT, uid, address, receipt.from, hash, Number(receipt.blockNumber), receipt.blockHash],
    );
    expect(row(await run(), 'USDT')).toMatchObject({ inbound: '50', drift: '0', ok: true });
    await env.database.sql.query('select * from coffer_deposit_credit_due(31337, $1::bigint + 2)', [Number(receipt.blockNumber)]);
    const sweeper = new Sweeper({ database: env.database, client: env.client, wallet: env.wallet, chainId: 31337 });
    for (let i = 0; i < 6; i++) await sweeper.tick();
    expect(await tokenBalance(env, 'USDT', address)).toBe(0n);
    const purposes = await env.database.sql.query<{ purpose: string }>(
      `select purpose from chain_txs where sweep_id is not null and status <> 'replaced' order by id`,
    );
    expect(purposes.map((p) => p.purpose)).toEqual(['gas_topup', 'sweep']);
    // a sweep pays the hot wallet, but it is custody moving, not a funding
    const [sweep] = await env.database.sql.query<{ tx_hash: `0x${string}` }>(`select tx_hash from chain_txs where purpose = 'sweep'`);
    const own = await bookFunding(env.database, env.client, env.hot.address, {
      networkId: env.nets.USDT,
      hash: sweep?.tx_hash as `0x${string}`,
      reason: 'x',
      actor: 'cli:test',
    }).catch((e) => e);
    expect(own).toBeInstanceOf(FundingError);
    const data = await run();
    expect(row(data, 'ETH')).toMatchObject({ drift: '0', ok: true });
    expect(row(data, 'USDT')).toMatchObject({ drift: '0', ok: true });
    await env.chain.mine(3);
    expect((await book()).gas).toBe(2);
    expect((await book()).gas).toBe(0);
    expect(row(await run(), 'ETH')).toMatchObject({ gasUnbooked: '0', drift: '0', ok: true });
    expect(await incidents()).toHaveLength(0);
  });

  it('above the ceiling the excess goes to the cold address, counted in reconciliation; its gas booked once', async () => {
    const cold = randomAddress();
    await env.database.sql.query(
      `update networks set hot_ceiling = v.ceiling::numeric, cold_address = $1 from (values ($2::int, '900'), ($3::int, '400000')) v(id, ceiling)
       where networks.id = v.id`,
      [cold, env.nets.ETH, env.nets.USDT],
    );
    const worker = new ColdWorker({ database: env.database, client: env.client, hot: env.hot, chainId: 31337 });
    expect(await worker.tick()).toMatchObject({ sent: 2 });
    await coldMovesMined();
    expect(await worker.tick()).toMatchObject({ sent: 0, mined: 2 }); // one move per network at a time
    expect(await env.chain.client.getBalance({ address: env.hot.address })).toBe(parseEther('900'));
    expect(await tokenBalance(env, 'USDT', env.hot.address)).toBe(400_000_000_000n);
    const data = await run();
    expect(row(data, 'ETH')).toMatchObject({ hot: '900', drift: '0', ok: true });
    expect(parseUnits(row(data, 'ETH').cold, 18) > parseUnits('99.99', 18)).toBe(true);
    expect(row(data, 'USDT')).toMatchObject({ hot: '400000', drift: '0', ok: true });
    expect(parseUnits(row(data, 'USDT').cold, 6) > parseUnits('600000', 6)).toBe(true);
    await env.chain.mine(3);
    expect((await book()).gas).toBe(2);
    expect(row(await run(), 'ETH')).toMatchObject({ gasUnbooked: '0', drift: '0', ok: true });
    expect(await worker.tick()).toMatchObject({ sent: 0 }); // at the ceiling: nothing more to move
  });

  it('below the floor: one alert with the amount to send, closed when back above', async () => {
    await env.database.sql.query(`update networks set hot_floor = 1500000 where id = $1`, [env.nets.USDC]);
    const worker = new ColdWorker({ database: env.database, client: env.client, hot: env.hot, chainId: 31337 });
    expect(await worker.tick()).toMatchObject({ opened: 1 });
    expect(await worker.tick()).toMatchObject({ opened: 0 });
    const alerts = await env.database.sql.query<{ amount: string; detail: string }>(
      `select amount::text as amount, detail from hot_alerts where network_id = $1 and closed_at is null`,
      [env.nets.USDC],
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.amount).toBe('500000.000000000000000000');
    expect(alerts[0]?.detail).toContain('send at least 500000 USDC');
    await env.database.sql.query(`update networks set hot_floor = 10 where id = $1`, [env.nets.USDC]);
    expect(await worker.tick()).toMatchObject({ closed: 1 });
    expect(await env.database.sql.query('select id from hot_alerts where closed_at is null')).toHaveLength(0);
  });

  it('a reorg before finality books no gas: the removed transaction has no receipt', async () => {
    const snapshot = (await env.rpc('evm_snapshot')) as string;
    await env.database.sql.query('update networks set hot_ceiling = 800 where id = $1', [env.nets.ETH]);
    const worker = new ColdWorker({ database: env.database, client: env.client, hot: env.hot, chainId: 31337 });
    expect(await worker.tick()).toMatchObject({ sent: 1 });
    await coldMovesMined();
    expect(await worker.tick()).toMatchObject({ mined: 1 });
    const [move] = await env.database.sql.query<{ id: number }>(
      `select id from chain_txs where purpose = 'cold' and status = 'mined' order by id desc limit 1`,
    );
    expect(await book()).toMatchObject({ gas: 0 }); // not final yet
    await env.rpc('evm_revert', [snapshot]); // the block with the move is gone
    await env.chain.mine(5);
    expect(await book()).toMatchObject({ gas: 0 });
    expect(await env.database.sql.query('select id from chain_gas where chain_tx_id = $1', [move?.id])).toEqual([]);
    await env.database.sql.query('update networks set hot_ceiling = null where id = $1', [env.nets.ETH]);
  });
});
