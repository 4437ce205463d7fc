import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

const PAGE =
  '<!doctype html><html><head><meta name="csp-nonce" content="__COFFER_CSP_NONCE__" />' +
  '<script type="module" crossorigin src="/console/assets/index.js"></script></head><body><div id="root"></div></body></html>';

/** The style nonce the page carries and the one its CSP names must be the same, fresh each time. */
function nonces(res: { body: string; headers: Record<string, unknown> }) {
  const inPage = /name="csp-nonce" content="([^"]+)"/.exec(res.body)?.[1];
  const csp = String(res.headers['content-security-policy']);
  const inPolicy = /style-src-elem 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
  return { inPage, inPolicy, csp };
}

describe('operator console static serving (/console)', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-console-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), PAGE);
    fs.writeFileSync(path.join(dir, 'assets', 'index.js'), 'console.log(1)');
    t = await createTestApp({ CONSOLE_DIST_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers every client route with the index page, a fresh style nonce and a CSP naming it', async () => {
    const seen = new Set<string>();
    for (const url of ['/console/', '/console/users/12', '/console/login?next=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      const { inPage, inPolicy, csp } = nonces(res);
      expect(inPage).toMatch(/^[A-Za-z0-9+/]{24}$/);
      expect(inPolicy).toBe(inPage);
      expect(csp).toMatch(/script-src 'self'; /);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      seen.add(inPage ?? '');
    }
    expect(seen.size).toBe(3);
  });

  it('serves hashed assets as immutable files, and a missing asset is 404, not the page', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/console/assets/index.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    expect(asset.body).toBe('console.log(1)');
    const missing = await t.app.inject({ method: 'GET', url: '/console/assets/gone.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe(4004);
  });

  it('sends /console to /console/', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/console' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/console/');
  });
});
