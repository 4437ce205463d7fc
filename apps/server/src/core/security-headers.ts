import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** Strict-Transport-Security max-age when HSTS=on: one year, the usual minimum for preload lists. */
export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Where the API document (Swagger UI) lives; it gets a policy of its own. */
const DOCS_PREFIX = '/api/docs';

/** Browser features the wallet never uses, switched off for it and anything it might embed. */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

/** Headers every answer carries (helmet's set, minus what is obsolete). */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  // Wallet URLs carry record ids; no other site needs to know them.
  'referrer-policy': 'no-referrer',
  'permissions-policy': PERMISSIONS_POLICY,
  // frame-ancestors 'none' is the modern form; this is for browsers without CSP level 2.
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-permitted-cross-domain-policies': 'none',
};

type Directives = Record<string, string[]>;

const serialize = (directives: Directives) =>
  Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');

const hash = (text: string) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The hashes of a page's inline <script> and <style> elements, in the form CSP wants. */
export function inlineHashes(html: string): { scripts: string[]; styles: string[] } {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)]
    .filter((m) => !/\bsrc\s*=/i.test(m[1] ?? ''))
    .map((m) => hash(m[2] ?? ''));
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)].map((m) => hash(m[1] ?? ''));
  return { scripts: [...new Set(scripts)], styles: [...new Set(styles)] };
}

/**
 * The web app's policy: its own scripts plus the inline boot script of the built index.html
 * (by hash, never 'unsafe-inline'); its own stylesheets plus the inline boot style (by
 * hash). No style attributes in markup: React and antd-mobile (react-spring) set styles
 * through the CSSOM, which CSP does not restrict; e2e/src/security.test.ts checks the pages.
 */
export function appPolicy(html: string, tls: boolean): string {
  const { scripts, styles } = inlineHashes(html);
  const directives: Directives = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scripts],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", ...styles],
    'style-src-elem': ["'self'", ...styles],
    'style-src-attr': ["'none'"],
    // data: for uploaded avatars (stored as data: URLs); https: for banner and help images given by URL.
    'img-src': ["'self'", 'data:', 'https:'],
    'connect-src': ["'self'"],
    // The installable app (docs/decisions/025-pwa.md): its service worker and manifest.
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  if (tls) directives['upgrade-insecure-requests'] = [];
  return serialize(directives);
}

/** The web app's service worker (apps/web/src/pwa/), served from the site root for scope "/". */
export const SERVICE_WORKER_PATH = '/sw.js';

/**
 * A service worker runs under the policy of its own script's answer, so the resource policy
 * (default-src 'none') would refuse its fetches: it may fetch from its own origin, nothing else.
 */
function serviceWorkerPolicy(): string {
  return serialize({
    'default-src': ["'none'"],
    'connect-src': ["'self'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
  });
}

/** Where the operator console lives (apps/console, served by app.ts with its own index). */
export const CONSOLE_PREFIX = '/console';

/**
 * The operator console's policy: like the app's, but antd writes its styles into <style>
 * elements at run time (CSS-in-JS), which 'self' and hashes cannot allow. Those carry the
 * per-answer nonce instead (never 'unsafe-inline'); the console's index.html has no inline
 * script. Uploaded banner images preview from blob: URLs before they are sent.
 */
export function consolePolicy(styleNonce: string, tls: boolean): string {
  const nonce = `'nonce-${styleNonce}'`;
  const directives: Directives = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", nonce],
    'style-src-elem': ["'self'", nonce],
    'style-src-attr': ["'none'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  if (tls) directives['upgrade-insecure-requests'] = [];
  return serialize(directives);
}

/** Swagger UI: its own scripts only, but it styles with inline <style> and style attributes. */
function docsPolicy(tls: boolean): string {
  const directives: Directives = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    // Its logo is a data: image.
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  if (tls) directives['upgrade-insecure-requests'] = [];
  return serialize(directives);
}

/** Anything that is not an HTML page (JSON, assets, SVG opened directly): nothing may run. */
function resourcePolicy(): string {
  return serialize({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'none'"] });
}

/**
 * The app policy follows the index.html being served: it is read again when the file
 * changes (a rebuild while the server runs), so the hash always matches the page.
 */
function indexPolicySource(webDistDir: string, tls: boolean) {
  const file = path.join(webDistDir, 'index.html');
  let cached: { key: string; policy: string } | undefined;
  return (): string => {
    try {
      const stat = fs.statSync(file);
      const key = `${stat.mtimeMs}:${stat.size}`;
      if (cached?.key !== key) cached = { key, policy: appPolicy(fs.readFileSync(file, 'utf8'), tls) };
      return cached.policy;
    } catch {
      // No web build: no inline script to allow.
      return appPolicy('', tls);
    }
  };
}

export interface SecurityHeaderOptions {
  webDistDir: string;
  /** The site is served over HTTPS: send HSTS and upgrade-insecure-requests. */
  hsts: boolean;
}

/** Adds the security headers to every answer (an onSend hook on the root instance). */
export function installSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions) {
  const common: Record<string, string> = { ...COMMON_HEADERS };
  if (opts.hsts) common['strict-transport-security'] = `max-age=${HSTS_MAX_AGE_SECONDS}`;
  const indexPolicy = indexPolicySource(opts.webDistDir, opts.hsts);
  const docs = docsPolicy(opts.hsts);
  const resource = resourcePolicy();
  const worker = serviceWorkerPolicy();

  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(common);
    const type = String(reply.getHeader('content-type') ?? '');
    let policy = request.url.split('?')[0] === SERVICE_WORKER_PATH ? worker : resource;
    // The console's page set its own policy with this answer's nonce (app.ts, serveConsole).
    const preset = reply.getHeader('content-security-policy');
    if (type.startsWith('text/html') && typeof preset === 'string' && request.url.startsWith(CONSOLE_PREFIX)) return payload;
    if (type.startsWith('text/html')) {
      const url = request.url;
      policy = url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`) || url.startsWith(`${DOCS_PREFIX}?`) ? docs : indexPolicy();
    }
    reply.header('content-security-policy', policy);
    return payload;
  });
}
