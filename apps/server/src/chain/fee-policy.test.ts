import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyWithdrawal,
  attemptsOf,
  expectAuditOk,
  newUser,
  type PayoutEnv,
  randomAddress,
  setAutomine,
  setupPayoutEnv,
  withdrawal,
} from './payout-test-support.ts';
import { payoutWorkers } from './payouts.ts';
import { silentChainLog } from './txs.ts';

/**
 * The fee policy as production wires it (payoutWorkers with what runtime.ts passes, the cap
 * and the bump limit read from the networks row each tick): on a real anvil whose base fee is
 * pushed above the cap with anvil_setNextBlockBaseFeePerGas, payouts wait with 'fees_high'
 * and go when the fee falls; a payout the chain does not mine is replaced at most
 * max_fee_bumps times.
 */
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

const GWEI = 1_000_000_000n;
const workersLikeProduction = () =>
  payoutWorkers(
    { database: env.database, adapter: { client: env.client }, wallet: env.wallet, chainId: 31337, log: silentChainLog },
    { sender: { bumpAfterMs: 0 } },
  );
const sender = () => {
  const w = workersLikeProduction().find((x) => x.name === 'sender');
  if (!w) throw new Error('no sender');
  return w;
};
const setBaseFee = async (wei: bigint) => {
  await env.rpc('anvil_setNextBlockBaseFeePerGas', [`0x${wei.toString(16)}`]);
  await env.rpc('evm_mine');
};
const waitOf = async (id: number) => {
  const [row] = await env.database.sql.query<{ wait_reason: string | null; waiting: boolean }>(
    'select wait_reason, wait_since is not null as waiting from withdrawals where id = $1',
    [id],
  );
  return row;
};

describe('fee policy on anvil (cap and bump limit from the networks row)', () => {
  it('a payout the chain does not mine is replaced at most max_fee_bumps times (not once a tick for ever)', async () => {
    await env.database.sql.query('update networks set max_fee_bumps = 3 where chain_id = 31337');
    const uid = await newUser(env, { ETH: '10' });
    await setAutomine(env, false);
    try {
      const id = await applyWithdrawal(env, uid, 'ETH', randomAddress(), '1');
      const s = sender();
      for (let i = 0; i < 20; i++) await s.tick(); // 20 ticks, each past bumpAfterMs (0)
      const attempts = await attemptsOf(env, id);
      // the first signature and at most 3 replacements
      expect(attempts.length, `${attempts.length} signatures of one payout in 20 ticks`).toBe(4);
      expect(await waitOf(id)).toEqual({ wait_reason: 'fee_bumps_exhausted', waiting: true });
      await env.rpc('evm_mine');
      for (let i = 0; i < 5; i++) {
        await env.rpc('evm_mine');
        await s.tick();
      }
      expect((await withdrawal(env, id)).status).toBe('completed');
      expect((await attemptsOf(env, id)).filter((a) => a.status === 'mined')).toHaveLength(1);
    } finally {
      await setAutomine(env, true);
      await env.database.sql.query('update networks set max_fee_bumps = 5 where chain_id = 31337');
    }
  });

  it('above the cap payouts wait with fees_high, and go when the fee falls (no restart)', async () => {
    const uid = await newUser(env, { ETH: '10' });
    await env.database.sql.query('update networks set gas_price_cap_wei = $1 where chain_id = 31337', [(50n * GWEI).toString()]);
    try {
      await setBaseFee(80n * GWEI); // a spike above the 50 gwei cap
      const gasPrice = await env.client.getGasPrice();
      expect(gasPrice > 50n * GWEI).toBe(true);
      const id = await applyWithdrawal(env, uid, 'ETH', randomAddress(), '1');
      const s = sender();
      await s.tick();
      expect((await withdrawal(env, id)).status).toBe('queued');
      expect(await waitOf(id)).toEqual({ wait_reason: 'fees_high', waiting: true });
      expect(await attemptsOf(env, id)).toHaveLength(0);

      // the operator raises the cap: the next tick reads it (no restart)
      await env.database.sql.query('update networks set gas_price_cap_wei = $1 where chain_id = 31337', [(60n * GWEI).toString()]);
      await s.tick();
      expect((await withdrawal(env, id)).status).toBe('queued');

      await setBaseFee(1n * GWEI); // the fee falls
      await s.tick();
      const w = await withdrawal(env, id);
      expect(w.status === 'broadcast' || w.status === 'confirming').toBe(true);
      expect(await waitOf(id)).toEqual({ wait_reason: null, waiting: false });
      const [attempt] = await attemptsOf(env, id);
      expect(BigInt(attempt?.gas_price ?? 0) <= 60n * GWEI).toBe(true);
      for (let i = 0; i < 5 && (await withdrawal(env, id)).status !== 'completed'; i++) {
        await env.rpc('evm_mine');
        await s.tick();
      }
      expect((await withdrawal(env, id)).status).toBe('completed');
    } finally {
      await env.database.sql.query('update networks set gas_price_cap_wei = $1 where chain_id = 31337', [(200n * GWEI).toString()]);
    }
  });
});
