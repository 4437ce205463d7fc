import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['src/**/*.test.ts'],
    // Migrates once per run; each test file copies that database (src/test/template-db.ts).
    globalSetup: ['src/test/global-setup.ts'],
    pool: 'forks',
    // Two files at once on the 2-core runner (vitest's default there is one): a file spends
    // much of its time waiting on anvil, litecoind, PostgreSQL or a spawned CLI. Measured on
    // PGlite: 843 tests in 700 s with two at a machine load of 5-8, 888 s with one in CI.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
