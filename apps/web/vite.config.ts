import react from '@vitejs/plugin-react';
import UnoCSS from 'unocss/vite';
import { defineConfig, loadEnv, type Plugin } from 'vite';

/**
 * Demo pages exist in development and when VITE_DEMO_PAGES=true (DESIGN §8). Otherwise
 * their route module is replaced by an empty list, so none of their chunks is built.
 */
function demoPages(enabled: boolean): Plugin {
  return {
    name: 'coffer-demo-pages',
    enforce: 'pre',
    load(id) {
      if (!enabled && id.replace(/\\/g, '/').endsWith('/src/app/demo-routes.ts')) {
        return 'export const demoRoutes = [];';
      }
      return null;
    },
  };
}

export default defineConfig(({ command, mode }) => {
  // A production build must bundle React's production code even when launched from a test
  // runner (vitest sets NODE_ENV=test, which Vite would otherwise follow).
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  const env = { ...loadEnv(mode, process.cwd(), ['VITE_', 'COFFER_']), ...process.env };
  const demoEnabled = command === 'serve' || env.VITE_DEMO_PAGES === 'true';
  // The API server runs on 8080 in embedded mode; the dev server proxies /api there so the
  // client keeps its same-origin base path ('/api') in every mode.
  const apiTarget = env.COFFER_API_URL ?? 'http://127.0.0.1:8080';

  return {
    plugins: [demoPages(demoEnabled), react(), UnoCSS()],
    // One switch for both the route list (plugin above) and the route rules (app/config.ts);
    // import.meta.env.DEV would follow NODE_ENV, which test runners set to "test".
    define: { __COFFER_DEMO_PAGES__: JSON.stringify(demoEnabled) },
    server: {
      host: '127.0.0.1',
      port: 5173,
      proxy: { '/api': { target: apiTarget, changeOrigin: true } },
    },
    preview: { host: '127.0.0.1', port: 4173 },
    build: {
      target: 'es2022',
      // Source maps would double what the server's static handler ships.
      sourcemap: false,
    },
  };
});
