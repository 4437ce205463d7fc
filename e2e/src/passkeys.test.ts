import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_REMOVES_PASSKEYS_DAYS } from '@coffer/contract/auth';
import { errorMessages } from '@coffer/contract/errors';
import { connectBrowser, createUser, KEYS, LANGS, mailDir, newLocalhostPhone, storedToken, t, waitForPath, waitForToast } from './app';
import { waitForCode } from './mailbox';
import { must } from './wallet-support';

describe('passkeys in the browser (virtual authenticator)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser();
  });
  afterAll(() => browser?.close());

  it.each(LANGS)(
    'asks for the password, registers a passkey in /settings/passkeys, then signs in with it without a password (%s)',
    async (lang) => {
      const user = await createUser(lang);
      const context = await newLocalhostPhone(browser, lang, user.token);
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
        // No recent re-authentication on this session: the password first, inline (a wrong one refused).
        await page.getByTestId('passkey-password').locator('input').fill('not-the-password');
        await page.getByTestId('passkey-add').click();
        await waitForToast(page, errorMessages[lang][2002]);
        expect(await page.getByTestId('passkey-item').count()).toBe(0);
        await page.getByTestId('passkey-password').locator('input').fill(user.password);
        await page.getByTestId('passkey-add').click();
        await page.getByTestId('passkey-item').first().waitFor();
        // Confirmed for 5 minutes on this session: no password field for the next one.
        await page.getByTestId('passkey-password').waitFor({ state: 'detached' });
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
        await page
          .locator('.adm-dialog-button')
          .filter({ hasText: t(lang, 'passkeys.remove') })
          .click();
        await page.getByTestId('passkeys-empty').waitFor();
      } finally {
        await context.close();
      }
    },
  );

  it.each(LANGS)("a reset by e-mail removes a passkey added lately (the page's checked option) (%s)", async (lang) => {
    const user = await createUser(lang);
    await must('/security/reauth', { token: user.token, body: { password: user.password } });
    const context = await newLocalhostPhone(browser, lang, user.token);
    const page = await context.newPage();
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      await page.goto('/settings/passkeys');
      await page.getByTestId('passkeys-empty').waitFor();
      await page.getByTestId('passkey-add').click();
      await page.getByTestId('passkey-item').first().waitFor();

      // Signed out; the owner resets the password by e-mail with the option left checked.
      await page.evaluate(() => localStorage.removeItem('access_token'));
      await page.goto('/forgot-password');
      await page.fill('input[name=email]', user.email);
      const since = Date.now();
      await page.getByTestId('send-code').click();
      const code = await waitForCode(mailDir(), user.email, since);
      await page.fill('input[name=code]', code);
      await page.fill('input[name=password]', 'a-new-p4ssword-for-tests');
      await page.fill('input[name=confirm]', 'a-new-p4ssword-for-tests');
      const option = page.getByTestId('reset-remove-passkeys');
      expect(await option.textContent()).toContain(t(lang, 'auth.removeRecentPasskeys', { days: RESET_REMOVES_PASSKEYS_DAYS }));
      expect(await option.locator('input').isChecked()).toBe(true);
      await page.getByTestId('reset-submit').click();
      await waitForPath(page, '/login');

      // The passkey no longer signs in.
      await page.getByTestId('login-passkey').click();
      await waitForToast(page, errorMessages[lang][2009]);
      expect(await storedToken(page)).toBeNull();
    } finally {
      await context.close();
    }
  });
});
