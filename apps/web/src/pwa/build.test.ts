import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ResolvedConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceWorker } from './build';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the plugin on a built index.html; returns the written sw.js. */
function build(html: string, favicon = '<svg/>'): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-sw-'));
  dirs.push(root);
  const [publicDir, outDir] = [path.join(root, 'public'), path.join(root, 'dist')];
  fs.mkdirSync(publicDir);
  fs.mkdirSync(outDir);
  fs.writeFileSync(path.join(publicDir, 'favicon.svg'), favicon);
  const plugin = serviceWorker(['/favicon.svg']);
  const context = {
    error: (message: string) => {
      throw new Error(message);
    },
  };
  (plugin.configResolved as (config: ResolvedConfig) => void)({ publicDir } as ResolvedConfig);
  (plugin.writeBundle as (this: typeof context, options: { dir: string }, bundle: object) => void).call(
    context,
    { dir: outDir },
    { 'index.html': { type: 'asset', source: html } },
  );
  return fs.readFileSync(path.join(outDir, 'sw.js'), 'utf8');
}

const shellOf = (worker: string) => JSON.parse(/const SHELL = (\[.*\]);/.exec(worker)![1]!) as string[];
const versionOf = (worker: string) => /const VERSION = '([0-9a-f]+)'/.exec(worker)![1];

const PAGE =
  '<html><head><script>const chunks = {"zh-CN":"/assets/zh.js","en-US":"/assets/en.js"};</script>' +
  '<script type="module" crossorigin src="/assets/index-a1.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/home.js"><link rel="stylesheet" href="/assets/main.css">' +
  '<link rel="icon" href="/favicon.svg"></head><body></body></html>';

describe('service worker build', () => {
  it('precaches index.html, every /assets/ file the page names (both locale chunks too) and the given public files', () => {
    expect(shellOf(build(PAGE))).toEqual([
      '/index.html',
      '/assets/zh.js',
      '/assets/en.js',
      '/assets/index-a1.js',
      '/assets/home.js',
      '/assets/main.css',
      '/favicon.svg',
    ]);
  });

  it('gets a new version when the page or a public shell file changes, and only then', () => {
    const version = versionOf(build(PAGE));
    expect(versionOf(build(PAGE))).toBe(version);
    expect(versionOf(build(PAGE.replace('index-a1', 'index-b2')))).not.toBe(version);
    expect(versionOf(build(PAGE, '<svg id="new"/>'))).not.toBe(version);
  });

  it('leaves no placeholder behind', () => {
    expect(build(PAGE)).not.toMatch(/__COFFER_SW_VERSION__|coffer:shell/);
  });
});
