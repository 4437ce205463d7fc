import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

const sha256 = (text: string) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const BOOT_SCRIPT = "\n      document.documentElement.lang = 'en-US';\n    ";
const BOOT_STYLE = '#boot{color:#333}';
const page = (script: string) =>
  `<!doctype html><html><head><script>${script}</script><style>${BOOT_STYLE}</style>` +
  '<script type="module" crossorigin src="/assets/index.js"></script></head><body><div id="app"></div></body></html>';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | undefined): Map<string, string[]> {
  expect(header, 'content-security-policy header').toBeTypeOf('string');
  const map = new Map<string, string[]>();
  for (const part of header!.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

function expectCommonHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['permissions-policy']).toMatch(/camera=\(\)/);
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
}

describe('security headers', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), page(BOOT_SCRIPT));
    fs.writeFileSync(path.join(webDir, 'assets', 'index.js'), 'console.log(1)');
    t = await createTestApp({ WEB_DIST_DIR: webDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('gives the web app a CSP that allows only its own scripts and the hashed inline one, and no framing', async () => {
    for (const url of ['/', '/login', '/charge']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expectCommonHeaders(res.headers);
      const csp = directives(res.headers['content-security-policy'] as string);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'", sha256(BOOT_SCRIPT)]);
      expect(csp.get('script-src-attr')).toEqual(["'none'"]);
      expect(csp.get('style-src')).toEqual(["'self'", sha256(BOOT_STYLE)]);
      expect(csp.get('style-src-elem')).toEqual(["'self'", sha256(BOOT_STYLE)]);
      expect(csp.get('style-src-attr')).toEqual(["'none'"]);
      expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'https:']);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['content-security-policy']).not.toMatch(/unsafe-eval/);
      // Not served over TLS unless the operator says so.
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
    }
  });

  it('follows a rebuilt index.html (the hash is of the file being served)', async () => {
    const rebuilt = "document.title = 'rebuilt';";
    const file = path.join(webDir, 'index.html');
    fs.writeFileSync(file, page(rebuilt));
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(directives(res.headers['content-security-policy'] as string).get('script-src')).toEqual(["'self'", sha256(rebuilt)]);
  });

  it('sends the headers with API answers and static assets too', async () => {
    for (const url of ['/api/health', '/api/no-such-route', '/assets/index.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      expectCommonHeaders(res.headers);
      expect(directives(res.headers['content-security-policy'] as string).get('frame-ancestors')).toEqual(["'none'"]);
    }
  });

  it('gives the API document its own CSP (inline styles allowed, scripts still only its own)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expectCommonHeaders(res.headers);
    const csp = directives(res.headers['content-security-policy'] as string);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    const json = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
  });
});

describe('security headers with HSTS=on (served over TLS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ HSTS: 'on' });
  });
  afterAll(() => t.close());

  it('sends Strict-Transport-Security and upgrades insecure requests', async () => {
    for (const url of ['/api/health', '/api/docs']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000');
    }
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(directives(page.headers['content-security-policy'] as string).has('upgrade-insecure-requests')).toBe(true);
  });
});
