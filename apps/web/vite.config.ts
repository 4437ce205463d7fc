import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import UnoCSS from 'unocss/vite';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { precompress } from '../../scripts/vite/precompress.ts';
import { serviceWorker } from './src/pwa/build.ts';
import { type ChunkGroups, chunkGroups, probeChunks } from './vite-chunk-groups.ts';
import { routePreloadPlan, stylesheetsAfterBoot } from './vite-route-preload.ts';

/**
 * The landing route stays a lazy chunk (docs/product.md §2: every route loads on demand), but the
 * browser learns about it (and other chunks needed before the first render) from
 * index.html and fetches it alongside the entry instead of after the entry has run. Its inline
 * script preloads them on "/" only: any other path first shows another page (decision 069).
 */
function preloadLandingRoute(moduleSuffixes: string[]): Plugin {
  const placeholder = '/*coffer:landing-chunks*/ []';
  return {
    name: 'coffer-preload-landing-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle ?? {};
        const files = Object.values(bundle).flatMap((output) =>
          output.type === 'chunk' && moduleSuffixes.some((suffix) => output.facadeModuleId?.endsWith(suffix))
            ? [output.fileName, ...output.imports]
            : [],
        );
        const present = new Set([...html.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((m) => m[1]));
        const preloads = files.filter((file, index) => files.indexOf(file) === index && !present.has(file) && file.endsWith('.js'));
        if (!html.includes(placeholder)) throw new Error('coffer-preload-landing-route: no landing placeholder in index.html');
        return html.replace(placeholder, JSON.stringify(preloads.map((file) => `/${file}`)));
      },
    },
  };
}

/** Whether a chunk holds a module: its own chunk, or a group's (vite-chunk-groups.ts). */
const holds = (chunk: { facadeModuleId?: string | null; moduleIds: string[] }, suffix: string) =>
  chunk.facadeModuleId?.endsWith(suffix) || chunk.moduleIds.some((id) => id.endsWith(suffix));

/**
 * Fills index.html's locale-file map, so its inline script can preload the one locale
 * the app will import (the choice depends on the browser, so it cannot be static), and the
 * file of the table of pages, which it preloads on any path but "/" (src/app/pages.ts), and
 * the router's files, which it preloads unless the page is the signed-out landing page (the
 * app renders that one before the router: src/app/landing.tsx).
 */
function localeChunkMap(): Plugin {
  const placeholder = '/*coffer:locale-chunks*/ {}';
  const pagesPlaceholder = "/*coffer:pages-chunk*/ ''";
  const routerPlaceholder = '/*coffer:router-chunks*/ []';
  return {
    name: 'coffer-locale-chunk-map',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const map: Record<string, string> = {};
        let pages = '';
        for (const output of Object.values(ctx.bundle ?? {})) {
          const match = output.type === 'chunk' ? /\/src\/locales\/([\w-]+)\.json$/.exec(output.facadeModuleId ?? '') : null;
          if (match?.[1]) map[match[1]] = `/${output.fileName}`;
          if (output.type === 'chunk' && holds(output, '/src/app/pages.ts')) pages = `/${output.fileName}`;
        }
        if (!pages) throw new Error('coffer-locale-chunk-map: no chunk for src/app/pages.ts');
        // The router's chunk and what it imports that index.html does not load already.
        const present = new Set([...html.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((m) => m[1]));
        const chunks = new Map(
          Object.values(ctx.bundle ?? {}).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output] as const] : [])),
        );
        const routerEntry = [...chunks.values()].find((chunk) => holds(chunk, '/src/app/start-router.tsx'));
        if (!routerEntry) throw new Error('coffer-locale-chunk-map: no chunk for src/app/start-router.tsx');
        const router: string[] = [];
        const visit = (file: string) => {
          if (router.includes(`/${file}`) || present.has(file)) return;
          router.push(`/${file}`);
          for (const imported of chunks.get(file)?.imports ?? []) visit(imported);
        };
        visit(routerEntry.fileName);
        return html
          .replace(placeholder, JSON.stringify(map))
          .replace(pagesPlaceholder, JSON.stringify(pages))
          .replace(routerPlaceholder, JSON.stringify(router));
      },
    },
  };
}

export default defineConfig(async ({ command, mode }) => {
  // A production build must bundle React's production code even when launched from a test
  // runner (vitest sets NODE_ENV=test, which Vite would otherwise follow).
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  const env = { ...loadEnv(mode, process.cwd(), ['VITE_', 'COFFER_']), ...process.env };
  // The API server runs on 8080 in embedded mode; the dev server proxies /api there so the
  // client keeps its same-origin base path ('/api') in every mode.
  const apiTarget = env.COFFER_API_URL ?? 'http://127.0.0.1:8080';
  // A production build first probes the automatic splitting, to group the signed-in shell's
  // chunks (vite-chunk-groups.ts); the probe itself (COFFER_CHUNK_PROBE) writes nothing.
  const probing = process.env.COFFER_CHUNK_PROBE === '1';
  const groups: ChunkGroups | null =
    command === 'build' && !probing ? chunkGroups(await probeChunks(fileURLToPath(import.meta.url), mode)) : null;

  return {
    plugins: [
      react(),
      UnoCSS(),
      // The landing route. (antd-mobile and its locale packs come with the page providers,
      // after the first paint: lib/page-providers.tsx.)
      preloadLandingRoute(['/src/features/home/pages/home.tsx']),
      localeChunkMap(),
      // A signed-in first open: every chunk and API answer of its page asked for at once.
      routePreloadPlan(fileURLToPath(new URL('./src/app/pages.ts', import.meta.url))),
      stylesheetsAfterBoot(),
      // The installable app's offline shell (docs/decisions/025-pwa.md).
      ...(probing ? [] : [serviceWorker(['/favicon.svg', '/manifest.webmanifest']), precompress({ brotli: true })]),
    ],
    resolve: {
      // React 19 has useSyncExternalStore: react-i18next's polyfill for React 17 is dead weight.
      alias: [
        {
          find: /^use-sync-external-store\/shim$/,
          replacement: fileURLToPath(new URL('./src/lib/use-sync-external-store-shim.ts', import.meta.url)),
        },
      ],
    },
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
      // The chunk graph, read by bench/web.mjs to tell render-critical chunks from later ones.
      manifest: true,
      // Chunks are named by content hash only: every lazy import's preload list names its
      // chunks in the entry, so readable names cost the first screen 1.5 kB gzip (measured
      // 150.25 -> 148.70 kB). The manifest still maps each file to its source.
      rollupOptions: {
        output: {
          chunkFileNames: 'assets/[hash].js',
          assetFileNames: 'assets/[hash][extname]',
          // The libraries the entry imports statically go in one chunk: left alone, rolldown
          // splits out each one a lazy page shares with the entry (React, i18next...), and the
          // first screen paid for more files that compress worse apart (-0.8 kB gzip). The
          // app's own modules shared with later chunks go in a second one, without their
          // dependencies: captured with them, they dragged in what the entry only re-exports
          // (the contract's amount rules, +1.5 kB). Stylesheets stay with the
          // entry too, so the cascade keeps main.tsx's import order (antd's nav and tab bar
          // rules after the app's, as before).
          codeSplitting: {
            groups: [
              {
                name: 'initial',
                tags: ['$initial' as const],
                // antd-mobile's global module stays with the entry, so that its stylesheet joins the
                // entry's rather than being a file of its own (decision 069).
                test: (id: string) =>
                  /[\\/]node_modules[\\/]/.test(id) && !id.endsWith('.css') && !/antd-mobile[\\/]es[\\/]global[\\/]/.test(id),
                priority: 4,
              },
              // The app's modules that the entry shares with later chunks (storage, i18n, route
              // titles...): one chunk rather than seven of 0.3-1.8 kB, each a round trip before
              // the first render (decision 065). Only these: their imports stay where they are.
              {
                name: 'initial-app',
                tags: ['$initial' as const],
                test: (id: string) => !/[\\/]node_modules[\\/]/.test(id) && !id.endsWith('.css') && !id.endsWith('/src/main.tsx'),
                priority: 3,
                includeDependenciesRecursively: false,
              },
              // What the signed-out landing fetches after its first paint, and what the signed-in
              // tab pages and /charge share with its styles: one file each instead of about 20 and
              // 40 (vite-chunk-groups.ts, decision 065). Their modules' dependencies are already
              // in a group or in a chunk they import.
              ...(groups
                ? [
                    {
                      name: 'after-paint',
                      test: (id: string) => groups.afterPaint.has(id),
                      priority: 2,
                      includeDependenciesRecursively: false,
                    },
                    { name: 'shell', test: (id: string) => groups.shell.has(id), priority: 1, includeDependenciesRecursively: false },
                    // /charge and its QR encoder, which its first screen imports at once: one
                    // file, one round trip fewer (decision 069).
                    { name: 'charge', test: (id: string) => groups.charge.has(id), priority: 1, includeDependenciesRecursively: false },
                  ]
                : []),
            ],
          },
        },
      },
    },
  };
});
