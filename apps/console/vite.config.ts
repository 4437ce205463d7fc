import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

/** The server serves this build under /console/ (apps/server/src/console.ts). */
export const CONSOLE_BASE = '/console/';

/**
 * Writes .gz next to every text asset so the server's static handler (preCompressed) sends
 * it without compressing per request. Brotli is left out: operators are few and on desktops.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const compressible = /\.(js|css|svg|json)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      if (name.startsWith('.')) return [];
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'coffer-console-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!compressible.test(file)) continue;
        const source = readFileSync(file);
        if (source.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

export default defineConfig(({ command, mode }) => {
  // Test runners set NODE_ENV=test; a production build must still bundle React's production code.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  const env = { ...loadEnv(mode, process.cwd(), ['COFFER_']), ...process.env };
  const apiTarget = env.COFFER_API_URL ?? 'http://127.0.0.1:8080';
  return {
    base: CONSOLE_BASE,
    plugins: [react(), precompress()],
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
