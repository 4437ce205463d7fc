import { parseArgs } from 'node:util';
import { PLANTED_BUGS, type PlantedBug } from './planted.ts';
import { formatChainReport } from './report.ts';
import { runChainSimulation } from './simulator.ts';

/**
 * npm run sim:chain -- --seed N --steps M [--planted BUG] [--database-url postgres://...]
 * PGlite in memory unless --database-url or SIM_DATABASE_URL names a PostgreSQL server (a
 * fresh database is created on it and dropped afterwards). Exit 1 on a violation.
 */
const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    steps: { type: 'string', default: '150' },
    planted: { type: 'string' },
    'database-url': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log(`usage: npm run sim:chain -- [--seed N] [--steps M] [--planted ${PLANTED_BUGS.join('|')}] [--database-url postgres://...]`);
  process.exit(0);
}

const int = (name: string, v: string | undefined, min: number) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min) {
    console.error(`--${name} must be an integer >= ${min}`);
    process.exit(2);
  }
  return n;
};
if (values.planted !== undefined && !PLANTED_BUGS.includes(values.planted as PlantedBug)) {
  console.error(`--planted must be one of ${PLANTED_BUGS.join(', ')}`);
  process.exit(2);
}

const seed = values.seed === undefined ? Date.now() % 1_000_000 : int('seed', values.seed, 0);
const steps = int('steps', values.steps, 1);
const databaseUrl = values['database-url'] ?? process.env.SIM_DATABASE_URL ?? undefined;

const report = await runChainSimulation({ seed, steps, databaseUrl, planted: values.planted as PlantedBug | undefined });
console.log(formatChainReport(report));
process.exit(report.divergence ? 1 : 0);
