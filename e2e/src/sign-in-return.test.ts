import { errorMessages } from '@coffer/contract/errors';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, newPhone, rendered, type TestUser, t, waitForPath } from './app';
import { openPage, typeAmount } from './wallet-support';

/** Signs in through the form, found by its labels and the button's name. */
async function signIn(page: Page, lang: Lang, user: TestUser) {
  await page.getByLabel(t(lang, 'auth.email')).fill(user.email);
  await page.getByLabel(t(lang, 'auth.password')).fill(user.password);
  await page.getByRole('button', { name: t(lang, 'auth.login'), exact: true }).click();
}

// Decision 021: after sign-in the user goes on to where they were going.
describe.each(LANGS)('sign-in return (%s)', (lang) => {
  let browser: Browser;
  let user: TestUser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await connectBrowser();
    user = await createUser(lang);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const fresh = async () => {
    await context?.close();
    context = await newPhone(browser, lang);
    return openPage(context);
  };

  it('returns to the protected page that sent the user to sign in', async () => {
    const page = await fresh();
    await page.goto('/transfer');
    await page.waitForURL((url) => url.pathname === '/login');
    await signIn(page, lang, user);
    await waitForPath(page, '/transfer');
    await context.close();
  });

  it('never follows a return target off the app', async () => {
    for (const target of ['//evil.example.com/x', 'https://evil.example.com/', '/\\evil.example.com']) {
      const page = await fresh();
      await page.goto(`/login?redirect=${encodeURIComponent(target)}`);
      await signIn(page, lang, user);
      await waitForPath(page, '/');
      await context.close();
    }
  });

  it('keeps the amount typed on /swap across sign-in', async () => {
    const page = await fresh();
    await page.goto('/swap');
    await typeAmount(page, '25');
    await page.getByTestId('swap-quote').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await signIn(page, lang, user);
    await page.waitForURL((url) => url.pathname === '/swap');
    await expect.poll(() => page.getByTestId('amount-field').textContent()).toContain('25');
  });

  it('takes a signed-out tap on Me to sign-in quietly, without a red pop-up', async () => {
    const page = await fresh();
    await page.goto('/');
    await page.locator('.adm-tab-bar').getByText(t(lang, 'tabs.profile'), { exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel(t(lang, 'auth.email')).waitFor();
    // Every request the tap made has been answered (signed out: no event stream keeps the
    // network busy) and rendered: a pop-up would be on screen now.
    await page.waitForLoadState('networkidle');
    await rendered(page);
    expect(await page.getByText(errorMessages[lang][2001]).count()).toBe(0);
    expect(await page.locator('.app-notify, .adm-toast-main').count()).toBe(0);
  });
});
