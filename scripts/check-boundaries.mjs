#!/usr/bin/env node
// Import boundaries Biome cannot express (its noRestrictedImports matches the specifier as
// written, not the file it resolves to; import cycles are Biome's noImportCycles, see biome.json):
//
//   server-module  apps/server/src/modules/<m>/ is reached from outside <m> only through its
//                  public file modules/<m>/index.ts; modules/<m>/routes.ts (the Fastify plugin)
//                  only from the registry modules/index.ts and app.ts. Test code is exempt.
//   ledger-http    apps/server/src/ledger/ (non-test files) never reaches fastify, directly or
//                  through the files it imports: the ledger is callable without HTTP.
//   web-feature    apps/web/src/features/<x>/ never imports apps/web/src/features/<y>/; shared
//                  code lives in components/ or lib/.
//
// Usage: node scripts/check-boundaries.mjs [--root DIR]. Prints one line per violation and
// exits 1 when there is any. Pure Node, no dependencies: it runs in the lint stage.
import fs from 'node:fs';
import path from 'node:path';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'];

/**
 * Web cross-feature imports let through: none. Kept as the one place an exception would be
 * written, "importing file -> imported file" relative to the root, with its reason; an entry
 * that no longer occurs is reported so it can be deleted.
 */
export const WEB_FEATURE_ALLOWLIST = new Set([]);

const isTestCode = (rel) =>
  /\.test\.[cm]?[jt]sx?$/.test(rel) || /(^|\/)test-(support|helpers)\.ts$/.test(rel) || rel.startsWith('apps/server/src/test/');

function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (SOURCE_EXTENSIONS.includes(path.extname(entry.name)) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Every module specifier of a file: static imports and re-exports, side-effect and dynamic imports. */
export function specifiers(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[1]);
  return found;
}

/** The file a relative specifier names (with or without extension, or a folder's index), or null. */
function resolve(fromFile, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), spec);
  const candidates = [base, ...SOURCE_EXTENSIONS.map((e) => base + e), ...SOURCE_EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  // `./x.js` written for `./x.ts` (TypeScript's NodeNext style).
  if (/\.[cm]?js$/.test(base)) candidates.push(base.replace(/\.([cm]?)js$/, '.$1ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
}

const isFastify = (spec) =>
  spec === 'fastify' || spec.startsWith('fastify/') || spec.startsWith('@fastify/') || spec.startsWith('fastify-');

export function checkBoundaries(root) {
  const rel = (f) => path.relative(root, f).split(path.sep).join('/');
  const violations = [];
  const graph = new Map(); // file -> { local: [resolved files], bare: [specifiers] }
  const serverSrc = path.join(root, 'apps/server/src');
  const webSrc = path.join(root, 'apps/web/src');
  for (const file of [...walk(serverSrc), ...walk(webSrc)]) {
    const local = [];
    const bare = [];
    for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = resolve(file, spec);
        if (target) local.push(target);
      } else bare.push(spec);
    }
    graph.set(file, { local, bare });
  }

  const moduleOf = (r) => r.match(/^apps\/server\/src\/modules\/([^/]+)\//)?.[1];
  const featureOf = (r) => r.match(/^apps\/web\/src\/features\/([^/]+)\//)?.[1];
  const seenAllowed = new Set();

  for (const [file, { local }] of graph) {
    const from = rel(file);
    for (const target of local) {
      const to = rel(target);
      const toModule = moduleOf(to);
      if (toModule && !isTestCode(from) && moduleOf(from) !== toModule) {
        const isIndex = to === `apps/server/src/modules/${toModule}/index.ts`;
        const isRoutes = to === `apps/server/src/modules/${toModule}/routes.ts`;
        const registry = from === 'apps/server/src/modules/index.ts' || from === 'apps/server/src/app.ts';
        if (!isIndex && !(isRoutes && registry)) {
          violations.push(`server-module: ${from} -> ${to} (import modules/${toModule}/index.ts instead)`);
        }
      }
      const toFeature = featureOf(to);
      const fromFeature = featureOf(from);
      if (toFeature && fromFeature && toFeature !== fromFeature) {
        const key = `${from} -> ${to}`;
        if (WEB_FEATURE_ALLOWLIST.has(key)) seenAllowed.add(key);
        else violations.push(`web-feature: ${key} (move the shared part to components/ or lib/)`);
      }
    }
  }

  // ledger-http: breadth-first from every non-test ledger file, through relative imports.
  const ledgerDir = 'apps/server/src/ledger/';
  for (const start of graph.keys()) {
    const startRel = rel(start);
    if (!startRel.startsWith(ledgerDir) || isTestCode(startRel)) continue;
    const via = new Map([[start, null]]);
    const queue = [start];
    while (queue.length) {
      const file = queue.shift();
      const node = graph.get(file);
      if (!node) continue;
      const hit = node.bare.find(isFastify);
      if (hit) {
        const chain = [];
        for (let f = file; f; f = via.get(f)) chain.unshift(rel(f));
        violations.push(`ledger-http: ${chain.join(' -> ')} imports '${hit}'`);
        break;
      }
      for (const next of node.local) {
        if (!via.has(next)) {
          via.set(next, file);
          queue.push(next);
        }
      }
    }
  }

  const stale = [...WEB_FEATURE_ALLOWLIST].filter((k) => !seenAllowed.has(k));
  return { violations, stale };
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('check-boundaries.mjs')) {
  const at = process.argv.indexOf('--root');
  const root = path.resolve(at > 0 ? process.argv[at + 1] : path.join(import.meta.dirname, '..'));
  const { violations, stale } = checkBoundaries(root);
  for (const v of violations) console.log(v);
  for (const s of stale) console.log(`note: allowlisted import no longer present, delete it from WEB_FEATURE_ALLOWLIST: ${s}`);
  console.log(violations.length ? `check-boundaries: ${violations.length} violation(s)` : 'check-boundaries: ok');
  process.exit(violations.length ? 1 : 0);
}
