import type { ChainSimReport } from './simulator.ts';

const list = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';

/** The run as a person reads it: seed, counts, figures, and the verdict or the first violation with its replay command. */
export function formatChainReport(r: ChainSimReport): string {
  const lines = [
    `chain simulator: seed ${r.seed}, ${r.steps} steps${r.planted ? `, planted bug ${r.planted}` : ''}`,
    `actions: ${list(r.actions)}`,
    `outcomes: ${list(r.outcomes)}`,
    `faults injected: ${list(r.faults)}`,
    `worker ticks that threw: ${list(r.workerErrors)}`,
    `rpc calls: ${list(r.rpcCalls)}`,
    `ms per worker and check: ${list(r.ms)}`,
    `rows at the end: ${list(r.rows)}`,
    `time: setup ${(r.setupMs / 1000).toFixed(1)} s, ${r.completed} steps + ${r.quiesceSteps} calm steps, ${r.blocks} blocks, ` +
      `${((r.elapsedMs - r.setupMs) / 1000).toFixed(1)} s (${r.stepsPerSecond.toFixed(1)} steps/s, every check after each)`,
  ];
  if (r.divergence) {
    lines.push(
      `VIOLATION at step ${r.divergence.step} (${r.divergence.action}): ${r.divergence.message}`,
      `reproduce: npm run sim:chain -- --seed ${r.seed} --steps ${Math.min(r.divergence.step, r.steps)}${r.planted ? ` --planted ${r.planted}` : ''}`,
    );
  } else {
    lines.push('every withdrawal paid at most once, no nonce gap, holdings equal the ledger, nothing stale unalerted');
  }
  return lines.join('\n');
}
