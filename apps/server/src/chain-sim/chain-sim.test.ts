import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';
import { CHAIN_FAULTS } from './faults.ts';
import type { PlantedBug } from './planted.ts';
import { formatChainReport } from './report.ts';
import { runChainSimulation } from './simulator.ts';

/**
 * The chain simulator (docs/decisions/042) in the API suite: seed 1 against the real watcher,
 * sender, sweeper and reconciler on the test database (PGlite, or PostgreSQL with
 * TEST_DB=postgres), every fault injected, every invariant holding after every step; then
 * each planted bug is found. A failure prints the report, whose last lines give the step and
 * the command that replays it.
 */
const SEED = Number(process.env.CHAIN_SIM_SEED ?? 1);
const STEPS = Number(process.env.CHAIN_SIM_STEPS ?? 70);

describe(`chain simulator (seed ${SEED}, ${STEPS} steps)`, () => {
  it('pays each withdrawal at most once, leaves no nonce gap and keeps holdings equal to the ledger through every fault', async () => {
    const report = await runChainSimulation({ seed: SEED, steps: STEPS, database: await createTestDatabase() });
    const text = formatChainReport(report);
    console.info(text);
    expect(report.divergence, text).toBeNull();
    expect(report.completed).toBe(STEPS);
    for (const fault of CHAIN_FAULTS) expect(report.faults[fault], `${fault} injected\n${text}`).toBeGreaterThan(0);
    // the run moved money both ways, or it proved little
    expect(report.outcomes.deposit_ETH, text).toBeGreaterThan(5);
    expect(report.outcomes.deposit_USDT, text).toBeGreaterThan(5);
    expect(report.outcomes.withdraw_ETH, text).toBeGreaterThan(3);
    expect(report.outcomes.withdraw_USDT, text).toBeGreaterThan(3);
    expect(report.rpcCalls.eth_sendRawTransaction, text).toBeGreaterThan(10);
  }, 120_000);

  const planted: Array<[PlantedBug, RegExp]> = [
    ['pay-and-refund', /paidOnce: withdrawal \d+ is failed \(refunded\) yet paid on chain[\s\S]*holdingsMatchLedger: \w+ holdings differ/],
    ['skipped-nonce', /noNonceGaps: hot wallet nonce \d+ was handed out/],
    ['double-sweep', /oneSweepPerAddress: double sweep: 2 open sweeps/],
  ];
  for (const [bug, found] of planted) {
    it(`finds the planted ${bug} bug and names the seed and step that replay it`, async () => {
      const report = await runChainSimulation({ seed: SEED, steps: STEPS, database: await createTestDatabase(), planted: bug });
      const text = formatChainReport(report);
      console.info(text);
      expect(report.divergence?.message, text).toMatch(found);
      expect(text).toContain(`reproduce: npm run sim:chain -- --seed ${SEED} --steps ${report.divergence?.step} --planted ${bug}`);
    }, 120_000);
  }
});
