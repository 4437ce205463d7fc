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
    // A page's first fetch can take a few seconds on a loaded 2-core runner; vitest's default
    // of 1 s for expect.poll made list assertions right after a navigation flaky.
    expect: { poll: { timeout: 10_000 } },
  },
});
