import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Runs from the repository root (`npx vitest run --config e2e/vitest.config.ts`) or from e2e/.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'e2e',
    // SCREENSHOTS=1 runs only the screenshot capture (docs/screenshots); the suite proper
    // does not spend its time budget on pictures.
    include: process.env.SCREENSHOTS === '1' ? ['src/**/*.shoot.ts'] : ['src/**/*.test.ts'],
    globalSetup: ['src/global-setup.ts'],
    // One server and one browser on two cores: files run one after another.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
