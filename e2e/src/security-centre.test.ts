import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, type Lang, newPhone, storedToken, t, waitForPath, waitForToast } from './app';

async function post(path: string, token: string, body: unknown = {}) {
  const response = await fetch(`${baseURL()}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': token },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { code: number };
}

async function signIn(browser: Browser, lang: Lang, email: string, password: string): Promise<[BrowserContext, Page]> {
  const context = await newPhone(browser, lang);
  const page = await context.newPage();
  await page.goto('/login');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.getByTestId('login-submit').click();
  await waitForPath(page, '/');
  return [context, page];
}

describe('security centre in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser();
  });
  afterAll(() => browser?.close());

  for (const lang of ['en-US', 'zh-CN'] as const) {
    it(`${lang}: two signed-in phones see two sessions; one signs the other out, which is signed out on its next request`, async () => {
      const user = await createUser(lang);
      // Only the two browser sessions below remain: end the API ones.
      expect((await post('/security/sessions/revokeOthers', user.token)).code).toBe(0);
      expect((await post('/logout', user.token)).code).toBe(0);

      const [contextA, pageA] = await signIn(browser, lang, user.email, user.password);
      const [contextB, pageB] = await signIn(browser, lang, user.email, user.password);
      try {
        await pageA.goto('/settings');
        await pageA.getByTestId('settings-security').click();
        await waitForPath(pageA, '/settings/security');
        const sessions = pageA.getByTestId('security-session');
        await expect.poll(() => sessions.count()).toBe(2);
        expect(await pageA.locator('[data-testid=security-session][data-current=true]').count()).toBe(1);
        await expect.poll(() => pageA.getByTestId('security-session-current').textContent()).toBe(t(lang, 'security.thisDevice'));
        expect(await sessions.first().textContent()).toContain('Safari on iOS');
        // Sign-in history: the sign-up and the sign-ins, all succeeded.
        await expect.poll(() => pageA.getByTestId('security-signin').count()).toBeGreaterThanOrEqual(4);
        // Links to the other sign-in protections.
        await pageA.getByTestId('security-2fa').waitFor();
        await pageA.getByTestId('security-passkeys').waitFor();

        // B is the other one: sign it out.
        await pageA.getByTestId('security-session-revoke').click();
        await pageA.locator('.adm-dialog-button', { hasText: t(lang, 'common.confirm') }).click();
        await waitForToast(pageA, t(lang, 'security.revoked'));
        await expect.poll(() => sessions.count()).toBe(1);
        expect(await pageA.getByTestId('security-session-revoke').count()).toBe(0);

        // B's next request answers 2001: the app forgets the token and shows the sign-in page.
        expect(await storedToken(pageB)).toMatch(/^Bearer /);
        await pageB.goto('/settings/security');
        await waitForPath(pageB, '/login?redirect=%2Fsettings%2Fsecurity');
        expect(await storedToken(pageB)).toBeNull();

        // A is still signed in; it sets an anti-phishing phrase, shown masked.
        await pageA.getByTestId('security-phrase-masked').click();
        await pageA.getByTestId('security-phrase-input').locator('input').fill('Blue Heron 42');
        await pageA.getByTestId('security-phrase-save').click();
        await waitForToast(pageA, t(lang, 'security.phraseSaved'));
        await expect.poll(() => pageA.getByTestId('security-phrase-masked').textContent()).toBe(`B${'•'.repeat(11)}2`);
        expect(await pageA.content()).not.toContain('Blue Heron');
      } finally {
        await contextA.close();
        await contextB.close();
      }
    });
  }
});
