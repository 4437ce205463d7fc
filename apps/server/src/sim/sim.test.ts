import { describe, expect, it } from 'vitest';
import { ADJUST_FAULTS, BATCH_FAULTS, REFUSAL_FAULTS } from './faults.ts';
import { formatReport } from './report.ts';
import { ACTIONS, runSimulation } from './simulator.ts';

/**
 * The seeded ledger simulator (decision 023) in the API suite: a fixed seed, every action
 * and every fault kind at least once, the audit clean and every balance exact after each
 * step. On PostgreSQL (TEST_DB=postgres) it runs there, in a database of its own. A failure
 * prints the report, whose last lines give the step and the command that replays it.
 */
const SEED = Number(process.env.SIM_SEED ?? 1);
const STEPS = Number(process.env.SIM_STEPS ?? 80);

describe(`ledger simulator (seed ${SEED}, ${STEPS} steps)`, () => {
  it('keeps the audit clean and every balance exact through faults, duplicates and refusals', async () => {
    const databaseUrl = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
    const report = await runSimulation({ seed: SEED, steps: STEPS, databaseUrl });
    const text = formatReport(report);
    console.info(text);
    expect(report.divergence, text).toBeNull();
    expect(report.completed).toBe(STEPS);
    for (const fault of [...BATCH_FAULTS, ...ADJUST_FAULTS, ...REFUSAL_FAULTS]) {
      expect(report.faults[fault], `${fault} injected\n${text}`).toBeGreaterThan(0);
    }
    for (const action of Object.keys(ACTIONS)) expect(report.actions[action as keyof typeof ACTIONS], action).toBeGreaterThan(0);
    // Some fault fell on a batch of several items (the writer's group path, not only singles).
    expect(Math.max(...report.faultBatchSizes), text).toBeGreaterThan(1);
    // The run moved money and kept refusals, or it proved little.
    expect(report.rows.transfers).toBeGreaterThan(20);
    expect(report.rows.swaps).toBeGreaterThan(5);
    expect(report.rows.refusals).toBeGreaterThan(0);
    expect(report.answers.replayed ?? 0).toBeGreaterThan(5);
  }, 60_000);
});
