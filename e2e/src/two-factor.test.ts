import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessages } from '@coffer/contract/errors';
import consoleEnUS from '../../apps/console/src/locales/en-US.json';
import consoleZhCN from '../../apps/console/src/locales/zh-CN.json';
import { codeFor } from './authenticator';
import { baseURL, connectBrowser, createUser, LANGS, type Lang, newPhone, storedToken, t, waitForPath, waitForToast } from './app';
import { must, operatorToken } from './wallet-support';

/** A six-digit code the authenticator does not show now, nor one step either side. */
function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1].map((step) => codeFor(secret, step)));
  let code = '000000';
  for (let n = 1; near.has(code); n++) code = String(n).padStart(6, '0');
  return code;
}

describe('two-factor authentication in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser();
  });
  afterAll(() => browser?.close());

  it.each(LANGS)(
    'enrols an authenticator from the QR page with the password, shows the recovery codes once, the withdraw page asks the code, then signs in with a code (%s)',
    async (lang) => {
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
        // Turning it on needs the password too: a wrong one is refused, the right one enrols.
        await page.getByTestId('2fa-password').locator('input').fill('not-the-password');
        await page.getByTestId('2fa-enable').click();
        // Written under the password field, not popped up.
        await page.getByTestId('2fa-password-error').getByText(errorMessages[lang][2002]).waitFor();
        await page.getByTestId('2fa-password').locator('input').fill(user.password);
        await page.getByTestId('2fa-enable').click();
        const codes = page.getByTestId('2fa-recovery-codes').locator('li');
        await codes.first().waitFor();
        expect(await codes.count()).toBe(10);
        await page.getByTestId('2fa-done').click();
        await expect.poll(() => page.getByTestId('2fa-status').textContent()).toBe(t(lang, 'twoFactor.on'));
        // Swaps ask too when turned on; turning that off needs a code, and a wrong one is said under its field.
        const swapsSwitch = page.getByTestId('2fa-swaps-switch');
        await swapsSwitch.click();
        await waitForToast(page, t(lang, 'stepUp.swapsSaved'));
        await expect.poll(() => swapsSwitch.getAttribute('aria-checked')).toBe('true');
        await swapsSwitch.click();
        await page.getByTestId('2fa-swaps-code').locator('input').fill(wrongCode(secret));
        await page.getByTestId('2fa-swaps-off').click();
        await page.getByTestId('2fa-swaps-code-error').getByText(errorMessages[lang][2007]).waitFor();
        expect(await page.locator('.adm-toast-main', { hasText: errorMessages[lang][2007] }).count()).toBe(0);
        await page.getByTestId('2fa-swaps-code').locator('input').fill(codeFor(secret));
        expect(await page.getByTestId('2fa-swaps-code-error').count()).toBe(0);
        await page.getByTestId('2fa-swaps-off').click();
        await expect.poll(() => swapsSwitch.getAttribute('aria-checked')).toBe('false');
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
    },
  );

  it.each(LANGS)(
    'an operator opens a two-factor reset in the console; the owner sees it in the security centre and cancels it (%s)',
    async (lang) => {
      const user = await createUser(lang);
      const setup = await must<{ secret: string }>('/2fa/setup', { token: user.token, method: 'POST' });
      await must('/2fa/enable', { token: user.token, body: { code: codeFor(setup.secret), password: user.password } });
      const uid = (await must<{ uid: number }>('/getCurrentUser', { token: user.token })).uid;
      const ct = (key: string) => consoleText(lang, key);

      const desk = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale: lang,
        baseURL: baseURL(),
        storageState: {
          cookies: [],
          origins: [
            {
              origin: baseURL(),
              localStorage: [
                { name: 'coffer.console.language', value: lang },
                { name: 'coffer.console.token', value: await operatorToken() },
              ],
            },
          ],
        },
      });
      const phone = await newPhone(browser, lang, { token: user.token });
      try {
        const admin = await desk.newPage();
        await admin.goto(`/console/users/${uid}`);
        await admin.getByTestId('user-2fa-reset-open').click();
        const dialog = admin.getByRole('dialog', { name: ct('users.resetOpenTitle').replace('{{email}}', user.email) });
        await dialog.getByLabel(ct('common.reason')).fill('e2e: lost phone, identity checked');
        await dialog.getByRole('button', { name: ct('users.resetOpen') }).click();
        await admin.getByTestId('user-2fa-reset-completes').waitFor();
        await admin.getByText('e2e: lost phone, identity checked').waitFor();

        const page = await phone.newPage();
        await page.goto('/settings/security');
        await page.getByTestId('security-2fa-reset').waitFor();
        expect(await page.getByTestId('security-2fa-reset').textContent()).toContain(t(lang, 'security.twoFactorReset'));
        // Only whoever still holds the authenticator stops it: a wrong code is said under the field.
        await page.getByTestId('security-2fa-reset-code').locator('input').fill(wrongCode(setup.secret));
        await page.getByTestId('security-2fa-reset-cancel').click();
        await page.getByTestId('security-2fa-reset-code-error').getByText(errorMessages[lang][2007]).waitFor();
        expect(await page.locator('.adm-toast-main', { hasText: errorMessages[lang][2007] }).count()).toBe(0);
        await page.getByTestId('security-2fa-reset-code').locator('input').fill(codeFor(setup.secret, 1));
        expect(await page.getByTestId('security-2fa-reset-code-error').count()).toBe(0);
        await page.getByTestId('security-2fa-reset-cancel').click();
        await waitForToast(page, t(lang, 'twoFactor.resetCancelled'));
        await page.getByTestId('security-2fa-reset').waitFor({ state: 'detached' });

        await admin.reload();
        await admin.getByTestId('user-2fa-reset-open').waitFor();
        const me = await must<{ twoFactor: boolean }>('/getCurrentUser', { token: user.token });
        expect(me.twoFactor).toBe(true);
      } finally {
        await phone.close();
        await desk.close();
      }
    },
  );
});

type Tree = { [key: string]: string | Tree };
const consoleTexts: Record<Lang, Tree> = { 'zh-CN': consoleZhCN, 'en-US': consoleEnUS };

/** The console's own text for a key (its locale files), as e2e/src/console.test.ts reads them. */
function consoleText(lang: Lang, key: string): string {
  let node: string | Tree | undefined = consoleTexts[lang];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no console text ${key} in ${lang}`);
  return node;
}
