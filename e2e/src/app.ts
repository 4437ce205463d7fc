import { type Browser, type BrowserContext, chromium, devices, type Locator, type Page, type Request } from 'playwright-core';
import { expect, inject } from 'vitest';
import enUS from '../../apps/web/src/locales/en-US.json';
import enUSFeatures from '../../apps/web/src/locales/features/en-US.json';
import zhCNFeatures from '../../apps/web/src/locales/features/zh-CN.json';
import zhCN from '../../apps/web/src/locales/zh-CN.json';
import { waitForCode } from './mailbox';

export type Lang = 'zh-CN' | 'en-US';
export const LANGS: Lang[] = ['zh-CN', 'en-US'];

/** Storage keys of apps/web/src/lib/storage.ts. */
export const KEYS = { token: 'access_token', language: 'language', theme: 'theme', user: 'user_info' } as const;

type Tree = { [key: string]: string | Tree };
// The app merges the feature texts into the same namespace when a page needs them.
const deepMerge = (a: Tree, b: Tree): Tree =>
  Object.fromEntries(
    [...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => {
      const x = a[k];
      const y = b[k];
      return [k, typeof x === 'object' && typeof y === 'object' ? deepMerge(x, y) : (y ?? x)!];
    }),
  );
const texts: Record<Lang, Tree> = { 'zh-CN': deepMerge(zhCN, zhCNFeatures), 'en-US': deepMerge(enUS, enUSFeatures) };

/** The app's own text for a key, so assertions follow the locale files instead of copies of them. */
export function t(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  let node: string | Tree | undefined = texts[lang];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${key} in ${lang}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

export function pageTitle(lang: Lang, key: string): string {
  return `${t(lang, key)} - ${t(lang, 'app.name')}`;
}

export const baseURL = () => inject('baseURL');
export const mailDir = () => inject('mailDir');

export function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('wsEndpoint'));
}

let serial = 0;
export function uniqueEmail(prefix: string): string {
  serial += 1;
  return `${prefix}-${Date.now().toString(36)}-${serial}-${Math.random().toString(36).slice(2, 6)}@example.com`.toLowerCase();
}

interface PhoneOptions {
  token?: string;
  localStorage?: Record<string, string>;
  deviceScaleFactor?: number;
  /**
   * The app's service worker (apps/web/src/pwa) is blocked unless a test asks for it: it
   * would change what a context finds offline, and only e2e/src/pwa.test.ts is about that.
   */
  serviceWorkers?: 'allow' | 'block';
}

/** An iPhone 13 context whose browser language is `lang`, optionally already signed in. */
export async function newPhone(browser: Browser, lang: Lang, options: PhoneOptions = {}): Promise<BrowserContext> {
  const storage = { ...options.localStorage, ...(options.token ? { [KEYS.token]: options.token } : {}) };
  return browser.newContext({
    ...devices['iPhone 13'],
    ...(options.deviceScaleFactor ? { deviceScaleFactor: options.deviceScaleFactor } : {}),
    locale: lang,
    baseURL: baseURL(),
    serviceWorkers: options.serviceWorkers ?? 'block',
    storageState: {
      cookies: [],
      origins: [
        {
          origin: baseURL(),
          localStorage: Object.entries(storage).map(([name, value]) => ({ name, value })),
        },
      ],
    },
  });
}

export interface TestUser {
  email: string;
  password: string;
  nickname: string;
  token: string;
}

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function api<T>(path: string, init: RequestInit & { lang: Lang }): Promise<T> {
  const response = await fetch(`${baseURL()}/api${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', 'accept-language': init.lang, ...init.headers },
  });
  const body = (await response.json()) as Envelope<T>;
  if (body.code !== 0) throw new Error(`${path}: ${body.code} ${body.message}`);
  return body.data;
}

/** Registers a user through the API (code read from the captured mailbox); returns the stored-token form. */
export async function createUser(lang: Lang, nickname = lang === 'zh-CN' ? '测试用户' : 'Tester'): Promise<TestUser> {
  const email = uniqueEmail('api');
  const password = 'p4ssword-for-tests';
  const since = Date.now();
  await api(`/sendMail?email=${encodeURIComponent(email)}&type=register`, { method: 'GET', lang, headers: {} });
  const code = await waitForCode(mailDir(), email, since);
  await api('/register', { method: 'POST', lang, body: JSON.stringify({ email, password, code, nickname }) });
  const login = await api<{ token: string; tokenHead: string }>('/login', {
    method: 'POST',
    lang,
    body: JSON.stringify({ email, password }),
  });
  return { email, password, nickname, token: login.tokenHead + login.token };
}

export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), KEYS.token);
}

/** Waits for a toast showing exactly `text` (an earlier toast may still be fading out). */
export async function waitForToast(page: Page, text: string) {
  await page
    .locator('.adm-toast-main')
    .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) })
    .waitFor();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Two animation frames: what the page's last answers and events caused has been rendered.
 * The end of a negative check ("no pop-up"), after the signal that the cause has happened.
 */
export async function rendered(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** Rounds of "answered, then rendered" a page may need before no new request follows (each answer may ask for more). */
const SETTLE_ROUNDS = 20;

/**
 * The page's requests not yet answered, from now on; the live event stream stays open while
 * signed in, so it is left out. Pass the set to `requestsSettled`.
 */
export function trackRequests(page: Page): Set<Request> {
  const open = new Set<Request>();
  page.on('request', (request) => {
    if (!new URL(request.url()).pathname.startsWith('/api/events')) open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return open;
}

/** Every request the page has started is answered, and what the answers caused has rendered. */
export async function requestsSettled(page: Page, open: Set<Request>): Promise<void> {
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    await expect.poll(() => open.size).toBe(0);
    await rendered(page);
    if (open.size === 0) return;
  }
  throw new Error(`the page kept asking for more after ${SETTLE_ROUNDS} rounds`);
}

/**
 * The page's finite CSS transitions and animations have ended (a control fading in from its
 * disabled look is low contrast until it has); endless ones (spinners) are not waited for.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(async (rounds) => {
    for (let round = 0; round < rounds; round++) {
      const running = document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY);
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  }, SETTLE_ROUNDS);
}

/** The first open's early batch, GET /api/batch?paths=... (a URL predicate for `page.route`). */
export const isEarlyBatch = (url: URL) => url.pathname === '/api/batch';

/**
 * index.html's script asks for a signed-in page's first GETs in one request (GET /api/batch,
 * decision 069), so a test that routes one of those paths sees no request on a first open.
 * Refusing the batch makes the app ask for each path itself, as it does when the batch fails.
 */
export async function withoutEarlyAnswers(page: Page): Promise<void> {
  await page.route(isEarlyBatch, (route) => route.abort('failed'));
}

/** The first request of a signed-in first open that asks who is signed in: alone, or in the early batch. */
export const asksCurrentUser = (request: Request) => /\/api\/(getCurrentUser$|batch\?paths=[^&]*\/getCurrentUser)/.test(request.url());

export async function waitForPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname + url.search === path);
}

export function navTitle(page: Page): Promise<string> {
  return text(page.locator('.adm-nav-bar-title'));
}

/** Trimmed text content of the first match. */
export async function text(locator: Locator): Promise<string> {
  return ((await locator.first().textContent()) ?? '').trim();
}

/**
 * WebAuthn needs a host name, not an IP address: the server's relying party defaults to
 * localhost, so these phones open the app on http://localhost:<port>.
 */
export const localhostURL = () => baseURL().replace('127.0.0.1', 'localhost');

export function newLocalhostPhone(browser: Browser, lang: Lang, token?: string): Promise<BrowserContext> {
  return browser.newContext({
    ...devices['iPhone 13'],
    locale: lang,
    baseURL: localhostURL(),
    // As newPhone: the app's service worker is only e2e/src/pwa.test.ts's business.
    serviceWorkers: 'block',
    storageState: {
      cookies: [],
      origins: [{ origin: localhostURL(), localStorage: token ? [{ name: KEYS.token, value: token }] : [] }],
    },
  });
}
