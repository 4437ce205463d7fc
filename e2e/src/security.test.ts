import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, newPhone, type TestUser } from './app';

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

/** How long a page gets after rendering to show any late violation. */
const SETTLE_MS = 750;

const violations = (page: Page) => page.evaluate(() => window.__cspViolations);

/** Opens `path`, waits until the page has rendered and settled, and returns what went wrong. */
async function visit(page: Page, errors: string[], path: string, ready: string) {
  errors.length = 0;
  const response = await page.goto(path);
  expect(response?.headers()['content-security-policy'], `${path}: CSP header`).toMatch(/script-src/);
  await page.locator(ready).first().waitFor();
  // Lazy chunks, images and the first API answers (the event stream stays open while signed
  // in, so the network never goes idle).
  await page.waitForLoadState('load');
  await page.waitForTimeout(SETTLE_MS);
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
    const errors = collectErrors(page);
    for (const path of ['/', '/login', '/register', '/swap', '/settings', '/forgot-password']) {
      const found = await visit(page, errors, path, 'main.app-main');
      expect(found, path).toEqual({ violations: [], errors: [] });
    }
    await page.close();
  });

  it('loads the signed-in pages without violations or console errors', async () => {
    const page = await signedIn.newPage();
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
      const found = await visit(page, errors, path, ready);
      expect(found, path).toEqual({ violations: [], errors: [] });
    }
    // A popup with its mask and spring animation (antd-mobile styles elements as it goes).
    await visit(page, errors, '/swap', '[data-testid=amount-field]');
    await page.getByTestId('amount-field').click();
    await page.locator('.adm-number-keyboard-popup .adm-number-keyboard').waitFor();
    await page.waitForTimeout(SETTLE_MS);
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
    const errors = collectErrors(page);
    const found = await visit(page, errors, '/profile', '.user-avatar');
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
    const errors = collectErrors(page);
    const found = await visit(page, errors, '/api/docs', '.swagger-ui .info .title');
    expect(found).toEqual({ violations: [], errors: [] });
    await page.close();
  });
});
