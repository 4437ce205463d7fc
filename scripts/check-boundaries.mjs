#!/usr/bin/env node
// Import boundaries Biome cannot express (its noRestrictedImports matches the specifier as
// written, not the file it resolves to; import cycles are Biome's noImportCycles, see biome.json):
//
//   server-module  apps/server/src/modules/<m>/ is reached from outside <m> only through its
//                  public file modules/<m>/index.ts; modules/<m>/routes.ts (the Fastify plugin)
//                  only from the registry modules/index.ts and app.ts. Test code is exempt.
//   ledger-http    apps/server/src/ledger/ (non-test files) never reaches fastify, directly or
//                  through the files it imports: the ledger is callable without HTTP.
//   server-core    apps/server/src/chain/ and apps/server/src/ledger/ never import modules/: the
//                  custody engine and the ledger sit below the HTTP features (test code exempt).
//   feature        in each front end (apps/web phone app, apps/console operator console),
//                  src/features/<x>/ never imports src/features/<y>/ nor src/app/ (the shell that
//                  composes the features); what two features share lives in lib/ or components/.
//   shared         in each front end, code outside features/ and app/ (components/, lib/, hooks/,
//                  stores/, pwa/, locales/ ...) never imports features/: it serves every feature.
//                  app/ and main.tsx are the composition root and may import features.
//
// Usage: node scripts/check-boundaries.mjs [--root DIR]. Prints one line per violation and
// exits 1 when there is any. Pure Node, no dependencies: it runs in the lint stage.
import fs from 'node:fs';
import path from 'node:path';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'];

/** The front ends the feature and shared rules apply to. */
export const FRONT_ENDS = ['apps/web/src', 'apps/console/src'];

/**
 * Front-end feature/shared imports let through: none. Kept as the one place an exception would be
 * written, "importing file -> imported file" relative to the root, with its reason; an entry
 * that no longer occurs is reported so it can be deleted.
 */
export const FRONT_ALLOWLIST = new Set([]);

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

/** Which front-end rule an import from place a to place b breaks, or null. */
function frontRule(a, b) {
  if (!a || !b || a.src !== b.src) return null;
  if (a.kind === 'feature' && b.kind === 'feature' && a.feature !== b.feature) return 'feature';
  if (a.kind === 'feature' && b.kind === 'app') return 'feature';
  if (a.kind === 'shared' && b.kind === 'feature') return 'shared';
  return null;
}

export function checkBoundaries(root) {
  const rel = (f) => path.relative(root, f).split(path.sep).join('/');
  const violations = [];
  const graph = new Map(); // file -> { local: [resolved files], bare: [specifiers] }
  const serverSrc = path.join(root, 'apps/server/src');
  const frontFiles = FRONT_ENDS.flatMap((src) => walk(path.join(root, src)));
  for (const file of [...walk(serverSrc), ...frontFiles]) {
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
  const core = (r) => /^apps\/server\/src\/(chain|ledger)\//.test(r);
  /** For a front-end file: its app root, and whether it is a feature <x>, the shell, or shared code. */
  const place = (r) => {
    const src = FRONT_ENDS.find((f) => r.startsWith(`${f}/`));
    if (!src) return null;
    const rest = r.slice(src.length + 1);
    const feature = rest.match(/^features\/([^/]+)\//)?.[1];
    if (feature) return { src, kind: 'feature', feature };
    if (rest.startsWith('app/') || /^main\.[jt]sx?$/.test(rest)) return { src, kind: 'app' };
    return { src, kind: 'shared' };
  };
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
      if (core(from) && !isTestCode(from) && toModule) {
        violations.push(`server-core: ${from} -> ${to} (move what both need to core/)`);
      }
      const rule = frontRule(place(from), place(to));
      if (!rule) continue;
      const key = `${from} -> ${to}`;
      if (FRONT_ALLOWLIST.has(key)) seenAllowed.add(key);
      else if (rule === 'feature') violations.push(`feature: ${key} (move the shared part to lib/ or components/)`);
      else violations.push(`shared: ${key} (shared code serves features; move the part it needs out of features/)`);
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

  const stale = [...FRONT_ALLOWLIST].filter((k) => !seenAllowed.has(k));
  return { violations, stale };
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('check-boundaries.mjs')) {
  const at = process.argv.indexOf('--root');
  const root = path.resolve(at > 0 ? process.argv[at + 1] : path.join(import.meta.dirname, '..'));
  const { violations, stale } = checkBoundaries(root);
  for (const v of violations) console.log(v);
  for (const s of stale) console.log(`note: allowlisted import no longer present, delete it from FRONT_ALLOWLIST: ${s}`);
  console.log(violations.length ? `check-boundaries: ${violations.length} violation(s)` : 'check-boundaries: ok');
  process.exit(violations.length ? 1 : 0);
}
