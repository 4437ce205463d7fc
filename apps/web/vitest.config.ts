import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Runs from the repository root (`npx vitest run --config apps/web/vitest.config.ts`)
// as well as from apps/web, so the root is pinned to this folder.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'web',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
