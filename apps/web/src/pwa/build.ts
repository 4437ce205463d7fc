import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Where the worker is served; apps/server's security headers give this path its own policy. */
export const SERVICE_WORKER_FILE = 'sw.js';

/** The cached page an offline start falls back to (the server serves dist/index.html there too). */
const INDEX = '/index.html';

/**
 * Writes dist/sw.js from src/pwa/sw.js with the shell it precaches: index.html, every
 * /assets/ file index.html names (entry script, stylesheet, modulepreloads and the locale
 * chunks in its inline map) and the given public files. The version is a hash of all of
 * them, so any change to the shell installs a new worker. Runs in writeBundle, after
 * index.html has its final form, and before precompress (closeBundle) so sw.js.gz exists.
 */
export function serviceWorker(publicShell: string[]): Plugin {
  let publicDir = '';
  return {
    name: 'coffer-service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    writeBundle(options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return this.error('index.html is not in the bundle');
      const page = String(html.source);
      const named = [...page.matchAll(/["'](\/assets\/[^"']+)["']/g)].map((m) => m[1]!);
      const shell = [...new Set([INDEX, ...named, ...publicShell])];
      const digest = crypto.createHash('sha256').update(page);
      for (const file of publicShell) digest.update(fs.readFileSync(path.join(publicDir, file)));
      const source = fs.readFileSync(new URL('./sw.js', import.meta.url), 'utf8');
      digest.update(source);
      const worker = source
        .replace('__COFFER_SW_VERSION__', digest.digest('hex').slice(0, 12))
        .replace('/*coffer:shell*/ []', JSON.stringify(shell));
      fs.writeFileSync(path.join(options.dir!, SERVICE_WORKER_FILE), worker);
    },
  };
}
