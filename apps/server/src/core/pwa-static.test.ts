import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Map<string, string[]> {
  expect(header, 'content-security-policy header').toBeTypeOf('string');
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

// The installable web app (docs/decisions/025-pwa.md): the service worker and the manifest
// have fixed names, so they must be revalidated; the worker needs a policy it can fetch under.
describe('web app service worker and manifest', () => {
  let t: TestApp;
  let webDir: string;
  // Long enough to be precompressed (the build writes .gz beside files over 1 kB).
  const worker = `self.addEventListener('fetch', () => {});\n${'// padding\n'.repeat(200)}`;
  const manifest = JSON.stringify({ name: 'Coffer', start_url: '/', display: 'standalone', icons: [] });

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-web-pwa-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><head></head><body><div id="app"></div></body></html>');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc.js'), 'console.log(1)');
    fs.writeFileSync(path.join(webDir, 'sw.js'), worker);
    fs.writeFileSync(path.join(webDir, 'sw.js.gz'), gzipSync(worker));
    fs.writeFileSync(path.join(webDir, 'manifest.webmanifest'), manifest);
    t = await createTestApp({ WEB_DIST_DIR: webDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('serves the worker as JavaScript, revalidated on each use, plain and precompressed', async () => {
    for (const encoding of ['identity', 'gzip']) {
      const res = await t.app.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': encoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe(encoding === 'gzip' ? 'gzip' : undefined);
    }
  });

  it('gives the worker a policy that lets it fetch from its own origin only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sw.js' });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.has('script-src')).toBe(false);
    // Any other script keeps the resource policy: nothing may run or fetch.
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const assetCsp = directives(asset.headers['content-security-policy']);
    expect(assetCsp.get('default-src')).toEqual(["'none'"]);
    expect(assetCsp.has('connect-src')).toBe(false);
  });

  it('serves the manifest as application/manifest+json, revalidated on each use', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(JSON.parse(res.body)).toMatchObject({ name: 'Coffer', display: 'standalone' });
  });

  it("lets the app's pages register its own worker and manifest, nobody else's", async () => {
    for (const url of ['/', '/index.html', '/wallet']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('worker-src')).toEqual(["'self'"]);
      expect(csp.get('manifest-src')).toEqual(["'self'"]);
    }
  });
});
