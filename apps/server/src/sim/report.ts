import type { SimReport } from './simulator.ts';

const list = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');

/** The run as a person reads it: seed, steps, counts, and the verdict or the first divergence. */
export function formatReport(r: SimReport): string {
  const lines = [
    `ledger simulator: seed ${r.seed}, ${r.steps} steps, ${r.database}`,
    `actions: ${list(r.actions)}`,
    `faults injected: ${list(r.faults)} (batch sizes at batch faults: ${r.faultBatchSizes.join(' ') || 'none'})`,
    `answers: ${list(r.answers)}`,
    `ledger rows: ${list(r.rows as unknown as Record<string, number>)}`,
    `time: setup ${(r.setupMs / 1000).toFixed(1)} s, ${r.completed} steps in ${((r.elapsedMs - r.setupMs) / 1000).toFixed(1)} s ` +
      `(${r.stepsPerSecond.toFixed(1)} steps/s, audit and balances checked after each)`,
  ];
  if (r.divergence) {
    lines.push(
      `DIVERGENCE at step ${r.divergence.step} (${r.divergence.action}): ${r.divergence.message}`,
      `reproduce: npm run sim -- --seed ${r.seed} --steps ${Math.max(r.divergence.step, 1)}`,
    );
  } else {
    lines.push('audit clean, balances exact');
  }
  return lines.join('\n');
}
