import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, newPhone, requestsSettled, type TestUser, trackRequests } from './app';

/**
 * The server's Content-Security-Policy must be one the app lives with: every main page,
 * signed out and signed in, loads without a single CSP violation or console error.
 */

interface Violation {
  directive: string;
  blockedURI: string;
  sample: string;
}

declare global {
  interface Window {
    __cspViolations: Violation[];
  }
}

/** Records every `securitypolicyviolation` event from the first byte of each document on. */
function recordViolations(context: BrowserContext) {
  return context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push({
        directive: event.effectiveDirective,
        blockedURI: event.blockedURI,
        sample: event.sample,
      });
    });
  });
}

/** Console errors and uncaught exceptions of a page, as text. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/**
 * What a page loads by itself after its first paint, in page time: the layout's preload of the
 * pop-up code and the page table (FEEDBACK_PRELOAD_DELAY_MS, 1 s, apps/web/src/app/layout/
 * app-frame.tsx) and the landing's router once idle (requestIdleCallback with a 2 s timeout,
 * apps/web/src/app/landing.tsx). The contexts' clocks are installed (page.clock), so moving
 * the clock this far fires those timers now instead of waiting for them.
 */
const LATE_LOADS_MS = 2000;
/** The keypad popup's spring animation ends well within this much page time. */
const ANIMATION_MS = 1000;

const violations = (page: Page) => page.evaluate(() => window.__cspViolations);

/** Opens `path`, waits until the page has rendered and settled, and returns what went wrong. */
async function visit(page: Page, open: Set<Request>, errors: string[], path: string, ready: string) {
  errors.length = 0;
  const response = await page.goto(path);
  expect(response?.headers()['content-security-policy'], `${path}: CSP header`).toMatch(/script-src/);
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('load');
  // Lazy chunks, images and the first API answers, then what the page loads later by itself.
  await requestsSettled(page, open);
  await page.clock.runFor(LATE_LOADS_MS);
  await requestsSettled(page, open);
  return { violations: await violations(page), errors: [...errors] };
}

describe('content security policy', () => {
  let browser: Browser;
  let user: TestUser;
  let guest: BrowserContext;
  let signedIn: BrowserContext;

  beforeAll(async () => {
    browser = await connectBrowser();
    user = await createUser('en-US');
    guest = await newPhone(browser, 'zh-CN');
    signedIn = await newPhone(browser, 'en-US', { token: user.token });
    await recordViolations(guest);
    await recordViolations(signedIn);
    // Running in real time until a test moves them (see LATE_LOADS_MS).
    await guest.clock.install();
    await signedIn.clock.install();
  });

  afterAll(async () => {
    await guest?.close();
    await signedIn?.close();
    await browser?.close();
  });

  it('notices a violation when there is one (the listener works)', async () => {
    const page = await guest.newPage();
    await page.goto('/login');
    await page.locator('main.app-main').waitFor();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.head.appendChild(script);
    });
    await expect.poll(async () => (await violations(page)).map((v) => v.directive)).toContain('script-src-elem');
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    await page.close();
  });

  it('loads the signed-out pages without violations or console errors', async () => {
    const page = await guest.newPage();
    const open = trackRequests(page);
    const errors = collectErrors(page);
    for (const path of ['/', '/login', '/register', '/swap', '/settings', '/forgot-password']) {
      const found = await visit(page, open, errors, path, 'main.app-main');
      expect(found, path).toEqual({ violations: [], errors: [] });
    }
    await page.close();
  });

  it('loads the signed-in pages without violations or console errors', async () => {
    const page = await signedIn.newPage();
    const open = trackRequests(page);
    const errors = collectErrors(page);
    const pages: [string, string][] = [
      ['/', 'main.app-main'],
      ['/swap', 'main.app-main'],
      ['/profile', '.user-avatar'],
      ['/settings', 'main.app-main'],
      ['/settings/security', '[data-testid=security-session]'],
      ['/settings/password', 'input[name=currentPassword]'],
      ['/charge', '[data-testid=deposit-qr] svg'],
      ['/withdraw', '[data-testid=withdraw-address]'],
      ['/transfer', 'main.app-main'],
      ['/bill/all', 'main.app-main'],
    ];
    for (const [path, ready] of pages) {
      const found = await visit(page, open, errors, path, ready);
      expect(found, path).toEqual({ violations: [], errors: [] });
    }
    // A popup with its mask and spring animation (antd-mobile styles elements as it goes).
    await visit(page, open, errors, '/swap', '[data-testid=amount-field]');
    await page.getByTestId('amount-field').click();
    await page.locator('.adm-number-keyboard-popup .adm-number-keyboard').waitFor();
    // The animation's frames are run to its end (the clock's animation frames move with it).
    await page.clock.runFor(ANIMATION_MS);
    await requestsSettled(page, open);
    expect({ violations: await violations(page), errors }, '/swap keypad').toEqual({ violations: [], errors: [] });
    await page.close();
  });

  it('shows a data: avatar (img-src allows data: URLs)', async () => {
    const avatar = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const res = await fetch(`${baseURL()}/api/updateUserInfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-token': user.token },
      body: JSON.stringify({ avatar }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(0);
    const page = await signedIn.newPage();
    const open = trackRequests(page);
    const errors = collectErrors(page);
    const found = await visit(page, open, errors, '/profile', '.user-avatar');
    expect(found).toEqual({ violations: [], errors: [] });
    await expect
      .poll(() =>
        page
          .locator('.user-avatar')
          .first()
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBe(1);
    await page.close();
  });

  it('serves the API document under its own policy, without violations', async () => {
    const page = await guest.newPage();
    const open = trackRequests(page);
    const errors = collectErrors(page);
    const found = await visit(page, open, errors, '/api/docs', '.swagger-ui .info .title');
    expect(found).toEqual({ violations: [], errors: [] });
    await page.close();
  });
});
