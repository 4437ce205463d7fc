import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseURL, connectBrowser, createUser, newPhone, type TestUser, t } from './app';
import { WEB_DIST_DIR } from './harness';
import { fund, openPage } from './wallet-support';

/**
 * Decision 025: the phone app is an installable PWA (docs/decisions/025-pwa.md). This file
 * needs a build with the service worker: run it against one made outside apps/web/dist,
 *   (cd apps/web && npx vite build --outDir /tmp/pwa-dist)
 *   E2E_WEB_DIST_DIR=/tmp/pwa-dist npx vitest run --config e2e/vitest.config.ts src/pwa.test.ts
 * or against apps/web/dist once it has been rebuilt with src/pwa.
 */

interface Fetched {
  path: string;
  type: string;
  /** The page's request was answered by the service worker (from its cache or its own fetch). */
  fromServiceWorker: boolean;
  /** The request was made by the service worker itself (install, or a cache miss). */
  byServiceWorker: boolean;
  /** Body bytes that came over the connection, as sent (compressed); an HTTP-cache hit is 0. */
  bytes: number;
}

interface Timed {
  url: string;
  /** Bytes over the connection, headers included; 0 for an HTTP-cache hit. */
  transferSize: number;
  encodedBodySize: number;
}

/**
 * The service worker's own fetches, from its resource timing. Playwright never settles the
 * sizes of some of them (its fetch of `/` stays without them), so the worker is asked instead.
 */
async function workerFetches(context: BrowserContext): Promise<Timed[]> {
  const worker = context.serviceWorkers()[0];
  if (!worker) return [];
  return worker.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
      url: e.name,
      transferSize: e.transferSize,
      encodedBodySize: e.encodedBodySize,
    })),
  );
}

/** Every request of the context while `visit` runs (the page's and its service worker's). */
async function record(context: BrowserContext, visit: () => Promise<void>): Promise<Fetched[]> {
  const finished: Request[] = [];
  const onFinished = (request: Request) => finished.push(request);
  const timedBefore = (await workerFetches(context)).length;
  context.on('requestfinished', onFinished);
  try {
    await visit();
  } finally {
    context.off('requestfinished', onFinished);
  }
  const timed = await workerFetches(context);
  // A worker that was stopped and started again has a new timeline.
  const workerTimed = timed.length >= timedBefore ? timed.slice(timedBefore) : timed;
  return Promise.all(
    finished.map(async (request) => {
      const response = await request.response();
      const byServiceWorker = request.serviceWorker() !== null;
      let bytes: number;
      if (byServiceWorker) {
        const index = workerTimed.findIndex((timing) => timing.url === request.url());
        const entry = index < 0 ? undefined : workerTimed.splice(index, 1)[0];
        bytes = entry && entry.transferSize > 0 ? entry.encodedBodySize : 0;
      } else {
        // Headers are left out: Chromium reports them for HTTP-cache hits too.
        bytes = Math.max(0, (await request.sizes()).responseBodySize);
      }
      return {
        path: new URL(request.url()).pathname,
        type: request.resourceType(),
        fromServiceWorker: response?.fromServiceWorker() ?? false,
        byServiceWorker,
        bytes,
      };
    }),
  );
}

/** What reached the network: the page's own requests not answered by the worker, and the worker's. */
const overNetwork = (fetched: Fetched[]) => fetched.filter((f) => f.byServiceWorker || !f.fromServiceWorker);
const isCode = (f: Fetched) => /\.(js|css)$/.test(f.path);
const summary = (fetched: Fetched[]) =>
  `${fetched.length} requests (${fetched.filter((f) => f.bytes > 0).length} with a body), ${(fetched.reduce((s, f) => s + f.bytes, 0) / 1000).toFixed(1)} kB`;

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

/**
 * The code the built page loads by itself (dist/.vite/manifest.json): the entry, the chunks it
 * imports lazily on every start (the first page; the page table and pop-up code, which the
 * layout preloads after the first paint) and what those import, as paths.
 */
function codeOfStart(): string[] {
  const manifest = JSON.parse(readFileSync(join(WEB_DIST_DIR, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const files = new Set<string>();
  const add = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(`/${chunk.file}`)) return;
    files.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) files.add(`/${css}`);
    for (const imported of chunk.imports ?? []) add(imported);
  };
  add('index.html');
  for (const lazy of manifest['index.html']?.dynamicImports ?? []) add(lazy);
  return [...files];
}

/** The built scripts and stylesheets (hashed, under /assets/) the page has loaded so far, as paths. */
const loadedCode = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((path) => path.startsWith('/assets/') && /\.(js|css)$/.test(path)),
  );

/** The page has loaded every file of `code`: its last known code has arrived. */
async function codeArrived(page: Page, code: string[]) {
  await expect
    .poll(async () => {
      const loaded = new Set(await loadedCode(page));
      return code.filter((path) => !loaded.has(path));
    })
    .toEqual([]);
}

/** The hashed files the page has loaded that the worker's cache does not hold. */
const uncached = (page: Page) =>
  page.evaluate(async () => {
    const loaded = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname);
    const held = new Set<string>();
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) held.add(new URL(request.url).pathname);
    }
    return [...new Set(loaded)].filter((path) => path.startsWith('/assets/') && !held.has(path));
  });

const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);

describe('installable app (PWA)', () => {
  const lang = 'en-US';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let user: TestUser;

  beforeAll(async () => {
    browser = await connectBrowser();
    user = await createUser(lang);
    await fund(user.email, '123.45', 'USDT');
    context = await newPhone(browser, lang, { token: user.token, serviceWorkers: 'allow' });
    page = await openPage(context);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('has a valid manifest with its icons, linked from the page with a theme colour', async () => {
    const response = await fetch(`${baseURL()}/manifest.webmanifest`);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Coffer', short_name: 'Coffer', start_url: '/', display: 'standalone', theme_color: '#00aba9' });
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    const sizes = new Set<string>();
    for (const icon of manifest.icons) {
      const image = await fetch(new URL(icon.src, baseURL()));
      expect(image.status, icon.src).toBe(200);
      expect(image.headers.get('content-type')).toBe(icon.type);
      const bytes = new Uint8Array(await image.arrayBuffer());
      // PNG: width and height are the big-endian words at bytes 16 and 20 of the IHDR chunk.
      const view = new DataView(bytes.buffer);
      expect([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
      expect(`${view.getUint32(16)}x${view.getUint32(20)}`).toBe(icon.sizes);
      sizes.add(`${icon.sizes} ${icon.purpose ?? 'any'}`);
    }
    expect([...sizes]).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));

    // Read from the served page, not a browser tab: the next test's first visit must be the first.
    const html = await (await fetch(`${baseURL()}/`)).text();
    const head = {
      manifest: /<link rel="manifest" href="([^"]+)"/.exec(html)?.[1],
      theme: /<meta name="theme-color" content="([^"]+)"/.exec(html)?.[1],
      appleIcon: /<link rel="apple-touch-icon" href="([^"]+)"/.exec(html)?.[1],
    };
    expect(head).toEqual({ manifest: '/manifest.webmanifest', theme: '#00aba9', appleIcon: '/icons/apple-touch-icon.png' });
    expect((await fetch(new URL(head.appleIcon!, baseURL()))).status).toBe(200);
  });

  it('registers its worker on the first visit, which controls the page after a reload and serves every script from its cache', async () => {
    let firstCode: string[] = [];
    const first = await record(context, async () => {
      await page.goto('/');
      await page.getByTestId('balance-USDT').waitFor();
      await codeArrived(page, codeOfStart());
      // Registered after load, installed (shell precached) and active.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await expect.poll(() => controlled(page)).toMatch(/\/sw\.js$/);
      // Beyond the shell, it keeps the route chunks this visit loaded before it existed.
      await expect.poll(() => uncached(page)).toEqual([]);
      firstCode = await loadedCode(page);
    });

    const repeat = await record(context, async () => {
      await page.reload();
      await page.getByTestId('balance-USDT').waitFor();
      // The same page: done once it has loaded what the first visit did.
      await codeArrived(page, firstCode);
    });
    expect(await controlled(page)).toMatch(/\/sw\.js$/);

    const pageCode = repeat.filter((f) => isCode(f) && !f.byServiceWorker);
    expect(pageCode.length).toBeGreaterThan(5);
    expect(pageCode.filter((f) => !f.fromServiceWorker).map((f) => f.path)).toEqual([]);
    // The shell came from the worker's cache: no script or stylesheet crossed the network.
    const networkCode = overNetwork(repeat).filter(isCode);
    const report = (visit: Fetched[]) => {
      const page = visit.filter((f) => !f.byServiceWorker && !f.fromServiceWorker);
      const worker = visit.filter((f) => f.byServiceWorker);
      return `page ${summary(page)} (JS/CSS ${summary(page.filter(isCode))}), worker ${summary(worker)} (JS/CSS ${summary(worker.filter(isCode))})`;
    };
    // Bytes are bodies that crossed the connection: a worker fetch answered by the HTTP cache counts 0.
    console.log(`[pwa] over the network, first visit: ${report(first)}; repeat visit: ${report(repeat)}`);
    expect(networkCode.map((f) => f.path)).toEqual([]);
    // The API is never the worker's: balances are always asked of the server.
    const api = repeat.filter((f) => f.path.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(0);
    expect(api.filter((f) => f.fromServiceWorker || f.byServiceWorker)).toEqual([]);
  });

  it('starts offline from the cached shell, says it is offline and shows no balance as current', async () => {
    await context.setOffline(true);
    try {
      await page.reload();
      await page.locator('.adm-tab-bar').waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: t(lang, 'errors.offline') })
        .waitFor();
      // The balances could not be asked for: none is shown, and the total is not a figure.
      await page.getByTestId('home').waitFor();
      expect(await page.locator('[data-testid^="balance-"]').count()).toBe(0);
      expect(await page.getByTestId('home-total').innerText()).not.toMatch(/\d/);
      expect(await page.getByText('123.45').count()).toBe(0);
    } finally {
      await context.setOffline(false);
    }
  });
});
