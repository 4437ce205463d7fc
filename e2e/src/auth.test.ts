import { errorMessages } from '@coffer/contract/errors';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectBrowser,
  KEYS,
  LANGS,
  mailDir,
  newPhone,
  pageTitle,
  storedToken,
  text,
  t,
  uniqueEmail,
  waitForPath,
  waitForToast,
} from './app';
import { waitForCode } from './mailbox';

async function fillLogin(page: Page, email: string, password: string) {
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.getByTestId('login-submit').click();
}

/** Clicks "send code", checks the 60 s lock, and returns the code from the mailbox. */
async function requestCode(page: Page, email: string): Promise<string> {
  const since = Date.now();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/sendMail')),
    page.getByTestId('send-code').click(),
  ]);
  expect(await response.json()).toMatchObject({ code: 0 });
  const code = await waitForCode(mailDir(), email, since);
  await expect.poll(() => page.getByTestId('send-code').isDisabled()).toBe(true);
  return code;
}

describe.each(LANGS)('accounts (%s)', (lang) => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = uniqueEmail(`ui-${lang}`);
  const password = 'first-Password-1';
  const newPassword = 'second-Password-2';
  const nickname = lang === 'zh-CN' ? '小明' : 'Alice';

  beforeAll(async () => {
    browser = await connectBrowser();
    context = await newPhone(browser, lang);
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('sends a signed-out visit of a protected page to /login', async () => {
    await page.goto('/profile');
    // Decision 021: quietly (no token, so no 2001 pop-up), and told where to come back to.
    await waitForPath(page, '/login?redirect=%2Fprofile');
    expect(await page.title()).toBe(pageTitle(lang, 'routes.login'));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
    expect(await storedToken(page)).toBeNull();
  });

  it('registers with the code from the mailbox', async () => {
    await page.getByTestId('to-register').click();
    await waitForPath(page, '/register');
    expect(await page.title()).toBe(pageTitle(lang, 'routes.register'));
    // The address changes before the lazy page replaces /login, whose form has an e-mail
    // field too: fill only once the register form is on screen.
    await page.getByTestId('register-submit').waitFor();
    await page.fill('input[name=email]', email);
    const code = await requestCode(page, email);
    await waitForToast(page, t(lang, 'auth.codeSent'));
    await page.fill('input[name=code]', code);
    await page.fill('input[name=nickname]', nickname);
    await page.fill('input[name=password]', password);
    await page.fill('input[name=confirm]', password);
    await page.getByTestId('register-submit').click();
    // Sign-up signs the user in; without a token the app would go to /login instead.
    await waitForPath(page, '/');
    expect(await storedToken(page)).toMatch(/^Bearer \S+$/);
    await page.getByText(t(lang, 'home.greeting', { name: nickname })).waitFor();
  });

  it('refuses a form the contract would refuse, before sending it', async () => {
    await page.goto('/register');
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/register')) sent.push(request.url());
    });
    await page.fill('input[name=email]', 'not-an-email');
    await page.fill('input[name=password]', 'short');
    await page.getByTestId('register-submit').click();
    await page.getByText(t(lang, 'validation.email')).waitFor();
    await page.getByText(t(lang, 'validation.password', { min: 8, max: 128 })).waitFor();
    expect(sent).toEqual([]);
  });

  it('shows the profile and saves a new nickname and avatar', async () => {
    await page.goto('/profile');
    const nicknameButton = page.getByTestId('profile-nickname');
    await expect.poll(() => text(nicknameButton)).toBe(nickname);
    expect(await text(page.getByTestId('profile-uid'))).toMatch(/^UID \d+$/);

    const renamed = `${nickname}2`;
    await nicknameButton.click();
    const input = page.locator('.adm-dialog input[name=nickname]');
    await input.fill(renamed);
    await page.locator('.adm-dialog-button', { hasText: t(lang, 'common.save') }).click();
    await expect.poll(() => text(nicknameButton)).toBe(renamed);

    await page.getByTestId('profile-avatar').click();
    await page.getByTestId('avatar-preset:3').click();
    await expect.poll(() => page.getByTestId('profile-avatar').locator('img').getAttribute('src')).toBe('/avatars/3.svg');

    // Saved on the server, not only in the page: a reload asks the server again.
    await page.reload();
    await expect.poll(() => text(page.getByTestId('profile-nickname'))).toBe(renamed);
    expect(await page.getByTestId('profile-avatar').locator('img').getAttribute('src')).toBe('/avatars/3.svg');
  });

  it('signs out from the settings page', async () => {
    await page.getByTestId('profile-settings').click();
    await waitForPath(page, '/settings');
    await page.getByTestId('logout').click();
    await page.locator('.adm-dialog-button', { hasText: t(lang, 'common.confirm') }).click();
    await waitForPath(page, '/login');
    expect(await storedToken(page)).toBeNull();
    expect(await page.evaluate((key) => sessionStorage.getItem(key), KEYS.user)).toBeNull();
    await page.goto('/settings');
    await waitForPath(page, '/login?redirect=%2Fsettings');
  });

  it('signs in with e-mail and password', async () => {
    await page.goto('/login');
    await fillLogin(page, email, 'wrong-password-0');
    // Decision 021: shown next to the password, not popped up.
    await page.locator('.adm-form-item-feedback-error', { hasText: errorMessages[lang][2002] }).waitFor();
    expect(await storedToken(page)).toBeNull();
    await fillLogin(page, email, password);
    await waitForPath(page, '/');
    expect(await storedToken(page)).toMatch(/^Bearer \S+$/);
  });

  it('resets the password with a mailed code', async () => {
    const fresh = await newPhone(browser, lang);
    const reset = await fresh.newPage();
    try {
      await reset.goto('/login');
      await reset.getByTestId('to-forgot').click();
      await waitForPath(reset, '/forgot-password');
      expect(await reset.title()).toBe(pageTitle(lang, 'routes.forgotPassword'));
      await reset.getByTestId('reset-submit').waitFor();
      await reset.fill('input[name=email]', email);
      const code = await requestCode(reset, email);
      await reset.fill('input[name=code]', code);
      await reset.fill('input[name=password]', newPassword);
      await reset.fill('input[name=confirm]', newPassword);
      await reset.getByTestId('reset-submit').click();
      await waitForPath(reset, '/login');
      await waitForToast(reset, t(lang, 'auth.resetSuccess'));

      await fillLogin(reset, email, password);
      await reset.locator('.adm-form-item-feedback-error', { hasText: errorMessages[lang][2002] }).waitFor();
      await fillLogin(reset, email, newPassword);
      await waitForPath(reset, '/');
      expect(await storedToken(reset)).toMatch(/^Bearer \S+$/);
    } finally {
      await fresh.close();
    }
  });

  it('drops the session that the reset revoked', async () => {
    // The first context signed in before the reset; its token no longer works.
    await page.goto('/settings');
    await waitForPath(page, '/login?redirect=%2Fsettings');
    expect(await storedToken(page)).toBeNull();
  });
});
