#!/usr/bin/env node
// The README's test command: type checks, lint, unit + API tests on PGlite, API tests on
// PostgreSQL (when TEST_DATABASE_URL is set), then browser tests. Stops at the first failing
// stage and ends with one plain summary line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-test-'));
const only = process.argv.slice(2); // e.g. `npm test -- api e2e` runs just those stages
let passed = 0;
let failed = 0;
let skipped = 0;

function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${name}: ${res.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return res.status === 0;
}

function vitest(name, config, env = {}) {
  const report = path.join(outDir, `${name}.json`);
  const ok = run(
    name,
    'npx',
    ['vitest', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    env,
  );
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
  } else if (!ok) {
    failed += 1;
  }
  return ok;
}

function apiOnPostgres() {
  if (process.env.TEST_DATABASE_URL) return vitest('api-postgres', 'apps/server/vitest.config.ts', { TEST_DB: 'postgres' });
  console.log('\n=== api-postgres: TEST_DATABASE_URL unset, PostgreSQL run left out');
  return true;
}

const stages = [
  ['typecheck', () => run('typecheck', 'npm', ['run', 'typecheck'])],
  [
    'lint',
    () =>
      run('lint', 'npx', ['biome', 'check', '--error-on-warnings', '.']) &&
      // Import boundaries Biome cannot express (server modules, chain/ledger below modules, ledger
      // without HTTP, features and shared code in the phone app and the console),
      // and the tests that each rule fails on a planted violation.
      run('boundaries-test', 'node', ['--test', 'scripts/check-boundaries.test.mjs']) &&
      run('boundaries', 'node', ['scripts/check-boundaries.mjs']) &&
      // docs/configuration.md is generated from the config schema: its tests, then the check.
      run('config-doc-test', 'node', ['--import', 'tsx', '--test', 'scripts/config-doc.test.ts']) &&
      run('config-doc', 'node', ['--import', 'tsx', 'scripts/config-doc.ts', '--check']) &&
      // docs/decisions/README.md lists every record with its status.
      run('decisions-index', 'node', ['scripts/decisions-index.mjs', '--check']) &&
      // Citations point at documents in the repository (docs/product.md §n, decision records).
      run('citations-test', 'node', ['--test', 'scripts/check-citations.test.mjs']) &&
      run('citations', 'node', ['scripts/check-citations.mjs']) &&
      // No source file over 400 lines; functions over 70 lines counted as a guide (decision 063).
      run('unit-sizes-test', 'node', ['--test', 'scripts/unit-sizes.test.mjs']) &&
      run('unit-sizes', 'node', ['scripts/unit-sizes.mjs']),
  ],
  [
    'unit',
    () =>
      vitest('api-client-unit', 'packages/api-client/vitest.config.ts') &&
      vitest('web-unit', 'apps/web/vitest.config.ts') &&
      vitest('console-unit', 'apps/console/vitest.config.ts'),
  ],
  ['api', () => vitest('api-pglite', 'apps/server/vitest.config.ts', { TEST_DB: 'pglite' })],
  ['api-pg', () => apiOnPostgres()],
  [
    'build',
    () =>
      run('build-web', 'npm', ['run', 'build', '-w', '@coffer/web']) &&
      run('build-console', 'npm', ['run', 'build', '-w', '@coffer/console']),
  ],
  ['e2e', () => vitest('e2e', 'e2e/vitest.config.ts')],
];

let ok = true;
for (const [name, stage] of stages) {
  if (only.length && !only.includes(name)) continue;
  if (!stage()) {
    ok = false;
    break;
  }
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok && failed === 0 ? 0 : 1);
