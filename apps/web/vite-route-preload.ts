import { readFileSync } from 'node:fs';
import type { Plugin, Rollup } from 'vite';
import { ROUTE_DATA } from './src/app/route-data';

/**
 * What a signed-in first open of a page needs, written into index.html so that its inline
 * script fetches it all alongside the entry instead of one step after another (entry, router,
 * guard, table of pages, page, providers, texts, then the page's data: docs/decisions/057).
 *
 * - `f`: chunk and stylesheet names (without "/assets/", so the service worker's shell, which
 *   takes every "/assets/..." that index.html names, does not grow by every page);
 * - `c`: what every signed-in page needs (the page providers, the guard's HTTP client and
 *   TanStack Query), by index into `f`;
 * - `r`: per route path (pages.ts's keys, "" for "/"), the page's chunk with its static
 *   imports and stylesheets, plus the chunks it fetches at once on its first screen;
 * - `l` / `x`: per language, antd-mobile's texts (every signed-in page) and the feature texts
 *   (every page but "/");
 * - `d`: per route path, the API GETs its first screen makes (src/app/route-data.ts).
 */
export interface RoutePlan {
  f: string[];
  c: number[];
  r: Record<string, number[]>;
  l: Record<string, number[]>;
  x: Record<string, number[]>;
  d: Record<string, string[]>;
}

/** Chunks a page imports lazily but shows at once (its first screen waits for them). */
export const FIRST_SCREEN_EXTRAS: Record<string, string[]> = {
  // The signed-in home: the wallet (balances, rates) comes through withProviders.
  '': ['/src/features/home/pages/home.tsx', '/src/features/home/components/wallet-home.tsx'],
  // The deposit address's QR code encoder.
  charge: ['/node_modules/qrcode/lib/browser.js'],
};

const COMMON = ['/src/lib/page-providers.tsx', '/src/lib/current-user.ts', '/src/lib/query-client.ts'];
const LANGUAGES = ['en-US', 'zh-CN'];

/** The routes of the table of pages: `key: () => import('../features/...')`. */
function pageModules(pagesFile: string): Record<string, string> {
  const source = readFileSync(pagesFile, 'utf8');
  const routes: Record<string, string> = {};
  for (const m of source.matchAll(/^\s*'?([\w/*-]+)'?: \(\) => import\('\.\.\/([^']+)'\)/gm)) {
    if (m[1] && m[2] && m[1] !== '*') routes[m[1]] = `/src/${m[2]}.tsx`;
  }
  return routes;
}

type OutputChunk = Rollup.OutputChunk;

function buildPlan(bundle: Rollup.OutputBundle, html: string, pagesFile: string): RoutePlan {
  const chunks = Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const present = new Set([...html.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((m) => m[1]));
  const find = (suffix: string) =>
    chunks.find((chunk) => chunk.facadeModuleId?.endsWith(suffix)) ??
    chunks.find((chunk) => chunk.moduleIds.some((id) => id.endsWith(suffix)));
  const files: string[] = [];
  const index = (file: string) => {
    const at = files.indexOf(file);
    return at >= 0 ? at : files.push(file) - 1;
  };
  /** The chunk of `suffix`, its static imports and their stylesheets, minus what index.html loads. */
  const closure = (suffixes: string[]) => {
    const out = new Set<string>();
    const visit = (file: string) => {
      if (out.has(file) || present.has(file)) return;
      out.add(file);
      const chunk = byFile.get(file);
      for (const css of (chunk as OutputChunk & { viteMetadata?: { importedCss: Set<string> } })?.viteMetadata?.importedCss ?? []) {
        if (!present.has(css)) out.add(css);
      }
      for (const imported of chunk?.imports ?? []) visit(imported);
    };
    for (const suffix of suffixes) {
      const chunk = find(suffix);
      if (!chunk) throw new Error(`coffer-route-preload: no chunk for ${suffix}`);
      visit(chunk.fileName);
    }
    return [...out].map((file) => index(file.replace(/^assets\//, '')));
  };
  const common = closure(COMMON);
  const commonSet = new Set(common);
  const without = (list: number[]) => list.filter((i) => !commonSet.has(i));
  const routes: Record<string, number[]> = {};
  for (const [path, module] of Object.entries(pageModules(pagesFile))) {
    routes[path] = without(closure([module, ...(FIRST_SCREEN_EXTRAS[path] ?? [])]));
  }
  routes[''] = without(closure(FIRST_SCREEN_EXTRAS[''] ?? []));
  const antd: Record<string, number[]> = {};
  const features: Record<string, number[]> = {};
  for (const language of LANGUAGES) {
    antd[language] = closure([`/antd-mobile/es/locales/${language}.js`]);
    features[language] = closure([`/src/locales/features/${language}.json`]);
  }
  return { f: files, c: common, r: routes, l: antd, x: features, d: ROUTE_DATA };
}

/** Fills index.html's route plan (its inline script reads it when a token is stored). */
export function routePreloadPlan(pagesFile: string): Plugin {
  const placeholder = '/*coffer:route-plan*/ {}';
  return {
    name: 'coffer-route-preload-plan',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!html.includes(placeholder)) throw new Error('coffer-route-preload: no route plan placeholder in index.html');
        return html.replace(placeholder, JSON.stringify(buildPlan(ctx.bundle ?? {}, html, pagesFile)));
      },
    },
  };
}

/**
 * Moves the app's stylesheets from the head to just after index.html's boot screen: a
 * stylesheet in the head holds the whole first paint until it arrives (a round trip after the
 * HTML, over half a second on a 3G link), one in the body only what follows it. The boot
 * screen, styled inline, paints from the HTML alone; the app, below, still waits for it.
 */
export function stylesheetsAfterBoot(): Plugin {
  return {
    name: 'coffer-stylesheets-after-boot',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = [...html.matchAll(/\s*<link rel="stylesheet"[^>]*>/g)].map((m) => m[0]);
        if (!html.includes('<div id="app"></div>')) throw new Error('coffer-stylesheets-after-boot: no #app in index.html');
        let out = html;
        for (const link of links) out = out.replace(link, '');
        return out.replace('<div id="app"></div>', `${links.map((l) => l.trim()).join('\n    ')}\n    <div id="app"></div>`);
      },
    },
  };
}
