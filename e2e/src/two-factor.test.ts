import * as OTPAuth from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, newPhone, storedToken, t, waitForPath } from './app';

/** The authenticator app of the test: the same RFC 6238 library as the server. */
function codeFor(secret: string, offsetSteps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

describe('two-factor authentication in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser();
  });
  afterAll(() => browser?.close());

  it('enrols an authenticator from the QR page, shows the recovery codes once, the withdraw page asks the code, then signs in with a code', async () => {
    const lang = 'en-US';
    const user = await createUser(lang);
    const context = await newPhone(browser, lang, { token: user.token });
    const page = await context.newPage();
    try {
      await page.goto('/settings');
      await page.getByTestId('settings-2fa').click();
      await waitForPath(page, '/settings/2fa');
      await page.getByTestId('2fa-setup').click();
      await page.getByTestId('2fa-qr').locator('svg').waitFor();
      const secret = (await page.getByTestId('2fa-secret').textContent())?.trim() ?? '';
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await page.getByTestId('2fa-code').locator('input').fill(codeFor(secret));
      await page.getByTestId('2fa-enable').click();
      const codes = page.getByTestId('2fa-recovery-codes').locator('li');
      await codes.first().waitFor();
      expect(await codes.count()).toBe(10);
      await page.getByTestId('2fa-done').click();
      await expect.poll(() => page.getByTestId('2fa-status').textContent()).toBe(t(lang, 'twoFactor.on'));
      // The withdraw page now asks for the authenticator code too.
      await page.goto('/withdraw');
      await page.getByTestId('withdraw-totp').waitFor();

      // Sign in again on a fresh phone: password, then the next code of the authenticator.
      const fresh = await newPhone(browser, lang);
      const login = await fresh.newPage();
      try {
        await login.goto('/login');
        await login.fill('input[name=email]', user.email);
        await login.fill('input[name=password]', user.password);
        await login.getByTestId('login-submit').click();
        await login.getByTestId('login-2fa-code').waitFor();
        expect(await storedToken(login)).toBeNull();
        await login.getByTestId('login-2fa-code').locator('input').fill(codeFor(secret, 1));
        await login.getByTestId('login-2fa-submit').click();
        await waitForPath(login, '/');
        expect(await storedToken(login)).toMatch(/^Bearer /);
      } finally {
        await fresh.close();
      }
    } finally {
      await context.close();
    }
  });
});
