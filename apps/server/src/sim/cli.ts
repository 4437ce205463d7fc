import { parseArgs } from 'node:util';
import { formatReport } from './report.ts';
import { runSimulation } from './simulator.ts';

/**
 * npm run sim -- --seed N --steps M [--database-url postgres://...]
 * PGlite in memory unless --database-url or SIM_DATABASE_URL names a PostgreSQL server (a
 * fresh database is created on it and dropped afterwards). Exit 1 on a divergence.
 */
const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    steps: { type: 'string', default: '200' },
    'database-url': { type: 'string' },
    users: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log('usage: npm run sim -- [--seed N] [--steps M] [--users K] [--database-url postgres://...]');
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

const seed = values.seed === undefined ? Date.now() % 1_000_000 : int('seed', values.seed, 0);
const steps = int('steps', values.steps, 1);
const users = values.users === undefined ? undefined : int('users', values.users, 4);
const databaseUrl = values['database-url'] ?? process.env.SIM_DATABASE_URL ?? undefined;

const report = await runSimulation({ seed, steps, databaseUrl, ...(users !== undefined && { users }) });
console.log(formatReport(report));
process.exit(report.divergence ? 1 : 0);
