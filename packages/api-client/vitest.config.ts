import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Runs from the repository root (`npx vitest run --config packages/api-client/vitest.config.ts`)
// as well as from this folder: the client against a real fetch Response, no browser.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'api-client',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
