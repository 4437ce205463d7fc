import { type Browser, type BrowserContext, devices } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, KEYS, storedToken, waitForPath } from './app';

/**
 * WebAuthn needs a host name, not an IP address: the server's relying party defaults to
 * localhost, so these phones open the app on http://localhost:<port>.
 */
const localhostURL = () => baseURL().replace('127.0.0.1', 'localhost');

function newLocalhostPhone(browser: Browser, token?: string): Promise<BrowserContext> {
  return browser.newContext({
    ...devices['iPhone 13'],
    locale: 'en-US',
    baseURL: localhostURL(),
    // As newPhone (app.ts): the app's service worker is only e2e/src/pwa.test.ts's business.
    serviceWorkers: 'block',
    storageState: {
      cookies: [],
      origins: [{ origin: localhostURL(), localStorage: token ? [{ name: KEYS.token, value: token }] : [] }],
    },
  });
}

describe('passkeys in the browser (virtual authenticator)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser();
  });
  afterAll(() => browser?.close());

  it('registers a passkey in /settings/passkeys, then signs in with it without a password', async () => {
    const user = await createUser('en-US');
    const context = await newLocalhostPhone(browser, user.token);
    const page = await context.newPage();
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });

      await page.goto('/settings');
      await page.getByTestId('settings-passkeys').click();
      await waitForPath(page, '/settings/passkeys');
      await page.getByTestId('passkeys-empty').waitFor();
      await page.getByTestId('passkey-add').click();
      await page.getByTestId('passkey-item').first().waitFor();
      expect(await page.getByTestId('passkey-item').count()).toBe(1);
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]!.isResidentCredential).toBe(true);

      // Signed out on this phone: the passkey alone signs back in.
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await page.goto('/login');
      expect(await storedToken(page)).toBeNull();
      await page.getByTestId('login-passkey').click();
      await waitForPath(page, '/');
      expect(await storedToken(page)).toMatch(/^Bearer /);
      const me = await page.evaluate(async (key) => {
        const response = await fetch('/api/getCurrentUser', { headers: { 'x-token': localStorage.getItem(key) ?? '' } });
        return (await response.json()) as { data: { email: string } };
      }, KEYS.token);
      expect(me.data.email).toBe(user.email);

      // Removing it from the list.
      await page.goto('/settings/passkeys');
      await page.getByTestId('passkey-remove').click();
      await page.locator('.adm-dialog-button').filter({ hasText: 'Remove' }).click();
      await page.getByTestId('passkeys-empty').waitFor();
    } finally {
      await context.close();
    }
  });
});
