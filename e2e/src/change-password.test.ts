import { errorMessages } from '@coffer/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFor } from './authenticator';
import { enableTwoFactor } from './wallet-support';
import { baseURL, connectBrowser, createUser, type Lang, newPhone, t, waitForPath, waitForToast } from './app';

async function call<T = unknown>(path: string, body: unknown, token?: string): Promise<{ code: number; data: T }> {
  const response = await fetch(`${baseURL()}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { 'x-token': token }) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { code: number; data: T };
}

describe('change password in the security centre', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser();
  });
  afterAll(() => browser?.close());

  for (const lang of ['en-US', 'zh-CN'] as const satisfies Lang[]) {
    it(`${lang}: changes the password from the security centre with the code (asked once two-factor is on) and signs out the other devices; the history names a wrong second step`, async () => {
      const user = await createUser(lang);
      const context = await newPhone(browser, lang);
      const page = await context.newPage();
      try {
        await page.goto('/login');
        await page.fill('input[name=email]', user.email);
        await page.fill('input[name=password]', user.password);
        await page.getByTestId('login-submit').click();
        await waitForPath(page, '/');
        await page.goto('/settings/security');
        await page.getByTestId('security-change-password').click();
        await waitForPath(page, '/settings/password');
        // Two-factor off when the page loaded: no code field.
        expect(await page.locator('input[name=code]').count()).toBe(0);

        // Meanwhile two-factor is turned on (through the API), and someone with the password
        // fails its second step.
        const setup = await call<{ secret: string }>('/2fa/setup', {}, user.token);
        await enableTwoFactor(user, setup.data.secret);
        const second = await call<{ secondFactor: { challenge: string } }>('/login', { email: user.email, password: user.password });
        const wrong = String((Number(codeFor(setup.data.secret)) + 1) % 1_000_000).padStart(6, '0');
        expect((await call('/login/2fa', { challenge: second.data.secondFactor.challenge, code: wrong })).code).toBe(2007);

        const newPassword = `${lang}-Fresh-Secret-${Date.now()}`;
        await page.fill('input[name=currentPassword]', user.password);
        await page.fill('input[name=password]', newPassword);
        await page.fill('input[name=confirm]', newPassword);
        await page.getByTestId('change-password-submit').click();
        // The server asks for the code (2006): the page learns two-factor is on and asks too.
        await page.locator('input[name=code]').waitFor();
        await page.fill('input[name=code]', codeFor(setup.data.secret));

        // A wrong current password shows under its field, in the page's language.
        await page.fill('input[name=currentPassword]', 'not-the-password-at-all');
        await page.getByTestId('change-password-submit').click();
        await page.locator('.adm-form-item-feedback-error', { hasText: errorMessages[lang][2012] }).waitFor();

        await page.fill('input[name=currentPassword]', user.password);
        await page.getByTestId('change-password-submit').click();
        // The API sessions of the sign-up and of createUser's sign-in.
        await waitForToast(page, t(lang, 'changePassword.doneSignedOut', { count: 2 }));
        await waitForPath(page, '/settings/security');

        // The other devices are signed out; this one stays; the new password signs in.
        expect((await call('/security/sessions/revokeOthers', {}, user.token)).code).toBe(2001);
        await expect.poll(() => page.getByTestId('security-session').count()).toBe(1);
        expect((await call('/login', { email: user.email, password: user.password })).code).toBe(2002);
        const fresh = await call<{ secondFactor?: unknown }>('/login', { email: user.email, password: newPassword });
        expect(fresh.code).toBe(0);
        expect(fresh.data.secondFactor).toBeDefined();

        // The sign-in history (read again: the wrong password above came after it loaded) tells
        // the wrong second step apart, in words, with its warning.
        await page.reload();
        const warned = page.locator('[data-testid=security-signin][data-kind=second_factor_wrong]');
        await warned.first().waitFor();
        expect(await warned.first().getByTestId('security-signin-kind').textContent()).toBe(t(lang, 'security.signInSecondFactorWrong'));
        expect(await warned.first().getByTestId('security-signin-warning').textContent()).toBe(t(lang, 'security.signInKnowsPassword'));
        const wrongPassword = page.locator('[data-testid=security-signin][data-kind=password_wrong]');
        await wrongPassword.first().waitFor();
        expect(await wrongPassword.first().getByTestId('security-signin-kind').textContent()).toBe(t(lang, 'security.signInFailed'));
      } finally {
        await context.close();
      }
    });
  }
});
