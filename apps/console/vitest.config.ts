import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Runs from the repository root (`npx vitest run --config apps/console/vitest.config.ts`) as
// well as from apps/console: plain functions of the console (language, labels), no browser.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'console',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
