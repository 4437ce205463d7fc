#!/usr/bin/env node
// Builds the server for `npm start`: src/main.ts and everything it imports from this repository
// (src/, packages/contract) bundled into dist/main.js by esbuild; packages from node_modules stay
// external (PGlite finds its .wasm and .data files next to its own module, argon2 is native,
// swagger-ui serves files from its folder) and load as they do under tsx.
//
// Why not tsx at run time: tsx's loader (a second V8 isolate for the module hooks, the esbuild
// service process, the transformed sources and source maps it keeps) cost 80-150 MB of resident
// memory in the ledger bench's PGlite server (decision 029). Tests, scripts and `npm run dev`
// still run the sources through tsx.
//
// Each source file keeps its own import.meta.url, .dirname and .filename (its place under src/), so paths a file finds
// relative to itself (drizzle/ migrations, the web and console dist folders, sql/) resolve exactly
// as under tsx. The bundle therefore belongs to this checkout: `npm start` rebuilds it (~0.5 s).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const serverRoot = path.resolve(import.meta.dirname, '..');
export const serverEntry = path.join(serverRoot, 'dist/main.js');

/**
 * The node flags `npm start` runs the bundle with: apps/server/package.json's start script names
 * the same ones (keep the two alike; the ledger bench takes them from here). Measured in the
 * ledger bench's PGlite server (decision 029), no measured cost per transfer or query:
 * - --max-semi-space-size=8: V8's young generation at 2 x 8 MB instead of 2 x 16 MB;
 * - --v8-pool-size=1: one V8 background thread instead of four; each thread that compiled
 *   (PGlite's WebAssembly, optimized JavaScript) keeps its own malloc arena afterwards;
 * - --heap-growing-percent=30: after a full collection the old generation may grow by 30% of what
 *   survived before the next one, where V8 otherwise lets it reach up to twice or more: the
 *   server's ~60 MB of live objects no longer carry 60 MB of garbage, and repeated loads no
 *   longer raise the peak.
 */
export const serverNodeFlags = ['--max-semi-space-size=8', '--v8-pool-size=1', '--heap-growing-percent=30'];

/** Bundles the repository's TypeScript; bare imports stay external except the workspace's @coffer/ packages. */
const sourcesInPlace = {
  name: 'coffer-sources-in-place',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@coffer/') ? undefined : { external: true }));
    build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      const contents = (await fs.promises.readFile(args.path, 'utf8'))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

/** The separate signer's entry (docs/decisions/039-separate-signer.md): the embedded server starts it as a child. */
export const signerEntry = path.join(serverRoot, 'dist/signer.js');

export async function buildServer() {
  await Promise.all([bundle('src/main.ts', serverEntry), bundle('src/signer/main.ts', signerEntry)]);
  return serverEntry;
}

async function bundle(entry, outfile) {
  await esbuild.build({
    entryPoints: [path.join(serverRoot, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Read only with node --enable-source-maps; costs nothing otherwise.
    sourcemap: 'linked',
    plugins: [sourcesInPlace],
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await buildServer();
