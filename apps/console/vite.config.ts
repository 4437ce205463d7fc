import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { precompress } from '../../scripts/vite/precompress.ts';

/** The server serves this build under /console/ (apps/server/src/console.ts). */
export const CONSOLE_BASE = '/console/';

export default defineConfig(({ command, mode }) => {
  // Test runners set NODE_ENV=test; a production build must still bundle React's production code.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  const env = { ...loadEnv(mode, process.cwd(), ['COFFER_']), ...process.env };
  const apiTarget = env.COFFER_API_URL ?? 'http://127.0.0.1:8080';
  return {
    base: CONSOLE_BASE,
    plugins: [react(), precompress({ brotli: false })],
    server: { host: '127.0.0.1', port: 5174, proxy: { '/api': { target: apiTarget, changeOrigin: true } } },
    build: {
      target: 'es2022',
      sourcemap: false,
      // Read by bench/web.mjs to tell the entry's static imports from lazy pages.
      manifest: true,
      // antd is one big vendor chunk by design; the phone app's budget does not apply here.
      chunkSizeWarningLimit: 2048,
    },
  };
});
