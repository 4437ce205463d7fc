#!/usr/bin/env node
/**
 * Web bundle and Lighthouse benchmark.
 *
 *   npm run bench:web                 # build, measure, 3 Lighthouse runs
 *   npm run bench:web -- --runs=5     # more Lighthouse runs (the median is reported)
 *   npm run bench:web -- --no-build   # measure the existing apps/web/dist
 *   npm run bench:web -- --signed-out-only   # the landing page alone
 *   npm run bench:web -- --relative   # signed-in floors relative to the signed-out "/" (loaded machine)
 *   BENCH_WEB_DIST=/tmp/x npm run bench:web -- --no-build   # measure a web build elsewhere
 *                                     # (built there without --no-build; the console stays apps/console/dist)
 *
 * 1. Builds apps/web (production).
 * 2. Initial JS/CSS for "/": the files index.html loads (entry script, modulepreloads of
 *    the entry's imports and of the landing route, the larger of the two locale files its
 *    inline script preloads; stylesheets). That is what the browser must load before the
 *    first page renders. (On any other path the inline script also preloads the table of
 *    pages, apps/web/src/app/pages.ts, and the router's files, apps/web/src/app/start-router.tsx;
 *    the signed-out "/" fetches them after the first paint, so they are in the browser figure
 *    below, not here.) Then what a browser
 *    really fetches for a signed-out phone visit of "/", recorded with playwright-core
 *    until the network is idle: this adds widgets that load after the first paint (the
 *    public rates with the HTTP client). Raw and gzip (level 9) bytes.
 * 3. Starts the real server (embedded mode, fresh DATA_DIR) serving the build and runs
 *    Lighthouse's default mobile profile (performance and accessibility) N times; prints the medians.
 * 4. The operator console (apps/console, served at /console/, desktop only): its initial JS
 *    (index.html's entry + modulepreloads), and with the dashboard route's chunks added
 *    (what a signed-in operator's first page needs). Reported only: it has no budget.
 * 5. The service worker (apps/web/src/pwa), when the build has one: bytes over the network
 *    and time to the tab bar on a first and on a repeat signed-out visit of "/". Reported only.
 * 6. Signed in (bench/web-signed-in.mjs; skipped with --signed-out-only): a user registered
 *    through the API, Lighthouse on "/", /swap, /bill/all, /profile and /charge in each round
 *    after the signed-out "/" (cold cache, the token in localStorage), then a first open of
 *    /charge over Fast 3G: time to the page's outline and to its address and QR. Budgets:
 *    each page >= 98 (--relative: 98/99 of the signed-out median), outline <= 1 s, address
 *    and QR <= 3 s.
 * Budgets: initial JS for "/" (index.html's set) <= 120 kB gzip; Lighthouse mobile
 * performance >= 98 and accessibility >= 95 (medians). Exits 1 when a budget is missed. It also reports whether the server compresses the assets, since
 * Lighthouse's simulated 4G link makes that decisive.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chargeOverFast3g, createBenchUser, lighthouseOnce, SIGNED_IN_PATHS, signedInBrowser, signedInVerdict } from './web-signed-in.mjs';
import { freePort, startServer } from './web-server.mjs';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
// Another directory lets a build be measured without touching apps/web/dist (which the e2e
// suite builds and reads).
const DIST = process.env.BENCH_WEB_DIST ? resolve(process.env.BENCH_WEB_DIST) : join(ROOT, 'apps/web/dist');
const CONSOLE_DIST = join(ROOT, 'apps/console/dist');
/** The console's base path (apps/console/vite.config.ts). */
const CONSOLE_BASE = '/console/';
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// 120 since the landing page paints without react-router (docs/decisions/026-landing-bundle.md).
const BUDGET_JS_GZIP_KB = 120;
const BUDGET_LIGHTHOUSE = 98;
const BUDGET_LIGHTHOUSE_A11Y = 95;

const args = process.argv.slice(2);
const runs = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 3);
const build = !args.includes('--no-build');
// --signed-out-only: the landing page alone (the signed-in pages take five times as long).
const signedInOnly = !args.includes('--signed-out-only');
// --relative: signed-in floors relative to the signed-out "/" of the same run (a loaded machine).
const relative = args.includes('--relative');
const lhLine = (r) =>
  `performance ${r.score}  accessibility ${r.a11y}  FCP ${Math.round(r.fcp)} ms  LCP ${Math.round(r.lcp)} ms  TBT ${Math.round(r.tbt)} ms  CLS ${r.cls.toFixed(3)}  bytes ${kb(r.bytes)} kB`;

const kb = (bytes) => (bytes / 1000).toFixed(1);
const gzipSize = (buffer) => gzipSync(buffer, { level: 9 }).length;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function table(title, rows) {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map((r) => r.file.length), 4);
  console.log(`  ${'file'.padEnd(width)}  ${'raw kB'.padStart(8)}  ${'gzip kB'.padStart(8)}`);
  for (const r of rows) console.log(`  ${r.file.padEnd(width)}  ${kb(r.raw).padStart(8)}  ${kb(r.gzip).padStart(8)}`);
  const raw = rows.reduce((s, r) => s + r.raw, 0);
  const gzip = rows.reduce((s, r) => s + r.gzip, 0);
  console.log(`  ${'total'.padEnd(width)}  ${kb(raw).padStart(8)}  ${kb(gzip).padStart(8)}`);
  return { raw, gzip };
}

function fileRow(path) {
  const buffer = readFileSync(join(DIST, path));
  return { file: path, raw: buffer.length, gzip: gzipSize(buffer) };
}

/** What index.html itself pulls in before any route code runs. */
function staticEntry() {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const js = new Set();
  const css = new Set();
  for (const match of html.matchAll(/<script[^>]*type="module"[^>]*src="\/([^"]+)"/g)) js.add(match[1]);
  for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+)"/g)) js.add(match[1]);
  for (const match of html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="\/([^"]+)"/g)) css.add(match[1]);
  // The landing route's chunks, which the inline script preloads on "/" only.
  const landing = /const landing = (\[[^\]]*\]);/.exec(html)?.[1];
  for (const href of landing ? JSON.parse(landing) : []) js.add(href.slice(1));
  const rows = [...js].map(fileRow);
  // The inline script preloads one locale file, chosen in the browser: count the larger.
  const localeMap = /const chunks = (\{[^;]*\});/.exec(html)?.[1];
  if (localeMap) {
    const locales = Object.values(JSON.parse(localeMap)).map((href) => fileRow(href.slice(1)));
    const largest = locales.sort((a, b) => b.gzip - a.gzip)[0];
    if (largest) rows.push({ ...largest, file: `${largest.file} (locale)` });
  }
  return { js: rows, css: [...css].map(fileRow) };
}

/**
 * The console's initial JS: what its index.html loads, then the same plus the dashboard
 * route's chunk and its static imports (from the build manifest).
 */
function consoleInitialJs() {
  const row = (file) => {
    const buffer = readFileSync(join(CONSOLE_DIST, file));
    return { file, raw: buffer.length, gzip: gzipSize(buffer) };
  };
  const html = readFileSync(join(CONSOLE_DIST, 'index.html'), 'utf8');
  const prefix = CONSOLE_BASE.replace(/\//g, '\\/');
  const entry = new Set();
  for (const m of html.matchAll(new RegExp(`<script[^>]*type="module"[^>]*src="${prefix}([^"]+)"`, 'g'))) entry.add(m[1]);
  for (const m of html.matchAll(new RegExp(`<link[^>]*rel="modulepreload"[^>]*href="${prefix}([^"]+)"`, 'g'))) entry.add(m[1]);
  const manifest = JSON.parse(readFileSync(join(CONSOLE_DIST, '.vite/manifest.json'), 'utf8'));
  const withRoute = new Set(entry);
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || withRoute.has(chunk.file)) return;
    withRoute.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  const dashboard = Object.keys(manifest).find((key) => key.endsWith('features/dashboard/pages/dashboard.tsx'));
  if (dashboard) visit(dashboard);
  return { entry: [...entry].map(row), dashboard: [...withRoute].map(row) };
}

/** Every JS/CSS file a signed-out phone visit to "/" fetches (en-US, like Lighthouse). */
async function recordBrowserLoad(baseURL) {
  const { chromium, devices } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({ ...devices['iPhone 13'], locale: 'en-US' });
    const page = await context.newPage();
    const seen = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (/\.(js|css)$/.test(path)) seen.push(path.slice(1));
    });
    await page.goto(`${baseURL}/`, { waitUntil: 'networkidle' });
    await page.locator('.adm-tab-bar').waitFor();
    await context.close();
    const unique = [...new Set(seen)].filter((path) => existsSync(join(DIST, path)));
    return {
      js: unique.filter((p) => p.endsWith('.js')).map(fileRow),
      css: unique.filter((p) => p.endsWith('.css')).map(fileRow),
    };
  } finally {
    await browser.close();
  }
}

/** Playwright can leave a service worker's navigation-preload answer pending for good. */
const settle = (promise, fallback, ms = 3000) =>
  Promise.race([promise.catch(() => fallback), new Promise((r) => setTimeout(() => r(fallback), ms))]);

/**
 * A signed-out phone visit of "/" twice: the first installs the service worker (apps/web/src/pwa),
 * the second is the repeat visit it serves. For each: body bytes that crossed the connection
 * (the page's requests the worker did not answer, plus the worker's own fetches; an HTTP-cache
 * hit counts 0), how many requests had one, and the time until the tab bar shows. Null when the build has no service worker.
 */
async function recordRepeatVisit(baseURL) {
  if (!existsSync(join(DIST, 'sw.js'))) return null;
  const { chromium, devices } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({ ...devices['iPhone 13'], locale: 'en-US' });
    const page = await context.newPage();
    const visit = async (go) => {
      const pending = [];
      const onFinished = (request) =>
        pending.push(
          (async () => {
            const response = await settle(request.response(), null);
            const sizes = await settle(request.sizes(), null);
            const viaWorker = request.serviceWorker() !== null || !response?.fromServiceWorker();
            // Bodies only: Chromium reports header sizes for HTTP-cache hits too.
            return viaWorker && sizes ? Math.max(0, sizes.responseBodySize) : 0;
          })(),
        );
      context.on('requestfinished', onFinished);
      const started = Date.now();
      await go();
      await page.locator('.adm-tab-bar').waitFor();
      const ms = Date.now() - started;
      await page.waitForTimeout(1500);
      context.off('requestfinished', onFinished);
      const sizes = await Promise.all(pending);
      return { ms, bytes: sizes.reduce((a, b) => a + b, 0), requests: sizes.filter((b) => b > 0).length };
    };
    const first = await visit(() => page.goto(`${baseURL}/`));
    // Installed, in control, and holding every hashed file the first visit loaded.
    await page.waitForFunction(
      async () => {
        if (!navigator.serviceWorker.controller) return false;
        const held = new Set();
        for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) held.add(new URL(r.url).pathname);
        return performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name).pathname)
          .every((path) => !path.startsWith('/assets/') || held.has(path));
      },
      undefined,
      { timeout: 30_000, polling: 250 },
    );
    const repeat = await visit(() => page.reload());
    await context.close();
    return { first, repeat };
  } finally {
    await browser.close();
  }
}

/** The content-encoding the server picks for the entry script when the browser offers br and gzip. */
async function serverCompression(baseURL) {
  const html = await (await fetch(`${baseURL}/`)).text();
  const entry = /<script[^>]*src="(\/[^"]+\.js)"/.exec(html)?.[1];
  if (!entry) return 'unknown';
  const response = await fetch(`${baseURL}${entry}`, { headers: { 'accept-encoding': 'br, gzip' } });
  await response.arrayBuffer();
  return response.headers.get('content-encoding') ?? 'none';
}

async function main() {
  if (build) {
    console.log('building apps/web ...');
    const outDir = process.env.BENCH_WEB_DIST ? ['--', '--outDir', DIST, '--emptyOutDir'] : [];
    execFileSync('npm', ['run', 'build', '-w', '@coffer/web', ...outDir], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    console.log('building apps/console ...');
    execFileSync('npm', ['run', 'build', '-w', '@coffer/console'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`${DIST}/index.html missing; run without --no-build`);

  const entry = staticEntry();
  const initialJs = table('initial JS for "/": index.html (entry script + modulepreloads)', entry.js);
  table('initial CSS for "/": index.html stylesheets', entry.css);

  const server = await startServer(ROOT, DIST);
  let compression;
  let repeatFigure = 'not measured';
  let results = [];
  const signedInResults = Object.fromEntries((signedInOnly ? SIGNED_IN_PATHS : []).map((path) => [path, []]));
  const fast3g = [];
  try {
    compression = await serverCompression(server.baseURL);
    const recorded = await recordBrowserLoad(server.baseURL);
    table('browser, signed-out visit of "/": all JS fetched until network idle (adds after-paint widgets)', recorded.js);
    table('browser, signed-out visit of "/": all CSS fetched until network idle', recorded.css);
    console.log(`\nserver compression of the entry script (accept-encoding: br, gzip): ${compression}`);
    const repeat = await recordRepeatVisit(server.baseURL);
    repeatFigure = repeat
      ? `first visit ${kb(repeat.first.bytes)} kB in ${repeat.first.requests} requests, tab bar at ${repeat.first.ms} ms;` +
        ` repeat visit ${kb(repeat.repeat.bytes)} kB in ${repeat.repeat.requests} requests, tab bar at ${repeat.repeat.ms} ms`
      : 'no service worker in the build';
    console.log(`service worker, signed-out visit of "/" (over the network): ${repeatFigure}`);

    // Signed-out "/" and the signed-in pages, round by round, so the machine's load of the
    // moment weighs on both alike; signed-in runs go through a Chromium holding the user's token.
    const outDir = mkdtempSync(join(tmpdir(), 'coffer-lh-'));
    const token = await createBenchUser(server.baseURL, server.dataDir);
    const lh = { root: ROOT, chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS };
    const signedIn = await signedInBrowser({ ...lh, baseURL: server.baseURL, token, port: await freePort() });
    try {
      for (let i = 1; i <= runs; i += 1) {
        const result = lighthouseOnce({ ...lh, url: `${server.baseURL}/`, outFile: join(outDir, `run-${i}.json`) });
        results.push(result);
        console.log(`lighthouse run ${i}/${runs}, signed out /: ${lhLine(result)}`);
        for (const path of signedInOnly ? SIGNED_IN_PATHS : []) {
          await signedIn.coldStart();
          const file = join(outDir, `run-${i}-in${path.replace(/\//g, '_')}.json`);
          const page = lighthouseOnce({ ...lh, url: `${server.baseURL}${path}`, outFile: file, port: signedIn.port });
          signedInResults[path].push(page);
          console.log(`lighthouse run ${i}/${runs}, signed in ${path}: ${lhLine(page)}`);
        }
      }
    } finally {
      await signedIn.close();
    }
    for (let i = 1; i <= (signedInOnly ? runs : 0); i += 1) {
      const timing = await chargeOverFast3g({ ...lh, baseURL: server.baseURL, token });
      fast3g.push(timing);
      console.log(
        `Fast 3G first open of /charge ${i}/${runs}: outline ${Math.round(timing.outline)} ms, address + QR ${Math.round(timing.ready)} ms`,
      );
    }
    // BENCH_WEB_KEEP=1 keeps the reports (their long-tasks and bootup-time audits name what blocked).
    if (process.env.BENCH_WEB_KEEP === '1') console.log(`Lighthouse reports kept in ${outDir}`);
    else rmSync(outDir, { recursive: true, force: true });
  } finally {
    await server.stop();
  }

  results = results.filter((r) => Number.isFinite(r.score));
  const score = median(results.map((r) => r.score));
  console.log(
    `\nLighthouse mobile performance, median of ${results.length}: ${score}` +
      `  (FCP ${Math.round(median(results.map((r) => r.fcp)))} ms, LCP ${Math.round(median(results.map((r) => r.lcp)))} ms,` +
      ` TBT ${Math.round(median(results.map((r) => r.tbt)))} ms, CLS ${median(results.map((r) => r.cls)).toFixed(3)})`,
  );

  let consoleFigure = 'not built';
  if (existsSync(join(CONSOLE_DIST, 'index.html'))) {
    const js = consoleInitialJs();
    const entryJs = table('operator console /console/: index.html JS (entry + modulepreloads)', js.entry);
    const withDashboard = table('operator console /console/: with the dashboard route (signed-in first page)', js.dashboard);
    consoleFigure = `${kb(entryJs.gzip)} kB gzip (${kb(withDashboard.gzip)} kB with the dashboard route)`;
  }

  const initial = initialJs.gzip;
  const jsOk = initial <= BUDGET_JS_GZIP_KB * 1000;
  const lhOk = score >= BUDGET_LIGHTHOUSE;
  const a11y = median(results.map((r) => r.a11y));
  const a11yOk = a11y >= BUDGET_LIGHTHOUSE_A11Y;
  console.log('\nbudgets');
  console.log(`  initial JS for "/" ${kb(initial)} kB gzip <= ${BUDGET_JS_GZIP_KB} kB: ${jsOk ? 'PASS' : 'FAIL'}`);
  console.log(`  Lighthouse mobile performance ${score} >= ${BUDGET_LIGHTHOUSE}: ${lhOk ? 'PASS' : 'FAIL'}`);
  console.log(`  Lighthouse mobile accessibility ${a11y} >= ${BUDGET_LIGHTHOUSE_A11Y}: ${a11yOk ? 'PASS' : 'FAIL'}`);
  console.log(`\nreported, no budget: operator console initial JS ${consoleFigure}`);
  console.log(`reported, no budget: service worker ${repeatFigure}`);
  if (!lhOk && compression === 'none') {
    console.log('  (the server sends the assets uncompressed; the build ships .br/.gz next to each file)');
  }
  const signedIn = signedInVerdict({ results: signedInResults, fast3g, reference: score, relative, median });
  for (const line of signedIn.lines) console.log(line);
  if (!jsOk || !lhOk || !a11yOk || !signedIn.ok) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
