/**
 * Reconciliation time against the number of deposit addresses (docs/decisions/038):
 *   node --import tsx scripts/bench-reconcile.ts [N ...]   (default 100 1000 5000)
 * A real anvil, PGlite in memory (TEST_DB / TEST_DATABASE_URL as in the tests), N deposit
 * addresses of N users, one ETH and one USDT deposit on every tenth; every network read at
 * one block. Prints milliseconds per run (best of 3) and the drift (must be 0).
 */
import { parseEther } from 'viem';
import { bookGenesisFunding } from '../src/chain/funding.ts';
import { creditDeposit, depositAddressFor, newUser, setupPayoutEnv } from '../src/chain/payout-test-support.ts';
import { reconcile } from '../src/chain/reconcile.ts';

const sizes = process.argv.slice(2).map(Number);
const env = await setupPayoutEnv();
try {
  await bookGenesisFunding(env.database, env.client, 31337, env.hot.address, env.chain.hotFunding);
  let have = 0;
  for (const n of sizes.length > 0 ? sizes : [100, 1000, 5000]) {
    for (; have < n; have++) {
      const uid = await newUser(env);
      const { address } = await depositAddressFor(env, uid);
      if (have % 10 === 0)
        await creditDeposit(env, uid, 'ETH', address, '0.01', await env.chain.faucet(address, 'ETH', parseEther('0.01')));
    }
    let best = Number.POSITIVE_INFINITY;
    let drift = '';
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const data = await reconcile({
        database: env.database,
        client: env.client,
        wallet: env.wallet,
        chainId: 31337,
        openIncidents: false,
      });
      best = Math.min(best, performance.now() - t0);
      drift = data.rows.map((r) => `${r.code} ${r.drift}`).join(', ');
    }
    console.log(`${n} deposit addresses, 3 networks: ${best.toFixed(0)} ms (best of 3); drift ${drift}`);
  }
} finally {
  await env.close();
}
