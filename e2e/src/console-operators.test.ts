import { codeFor, sendPreviousCode } from './authenticator';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, LANGS, type Lang } from './app';
import { E2E_OPERATOR_EMAIL } from './harness';
import { must, OPERATOR_PASSWORD, operatorCode, operatorToken } from './wallet-support';
import { ct, submitPassword } from './console-support';

/** Operators held higher in the console (decision 045): sign-in with the code, roles, the second-factor page, idle sign-out. */

async function newDesktop(browser: Browser, lang: Lang): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: lang,
    baseURL: baseURL(),
    storageState: { cookies: [], origins: [{ origin: baseURL(), localStorage: [{ name: 'coffer.console.language', value: lang }] }] },
  });
}

const signIn = submitPassword;

async function enterCode(page: Page, lang: Lang, code: string) {
  await page.getByLabel(ct(lang, 'auth.code')).fill(code);
  await page.getByRole('button', { name: ct(lang, 'auth.verify'), exact: true }).click();
}

const menuItems = async (page: Page) => (await page.getByRole('menuitem').allTextContents()).map((s) => s.trim());

describe('console: operators, roles and the second factor', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser();
    await operatorToken(); // registers the admin and enrols their authenticator on a fresh server
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(LANGS)(
    'in %s: the admin signs in with a code, makes a user a finance operator, who must enrol a factor and then sees only their pages',
    async (lang) => {
      const member = await createUser(lang);
      const me = await must<{ uid: number }>('/getCurrentUser', { token: member.token });
      const admin = await newDesktop(browser, lang);
      const other = await newDesktop(browser, lang);
      try {
        const page = await admin.newPage();
        // The code first (it may wait for a fresh 30 s step), so the code form is filled at once.
        const code = await operatorCode();
        await signIn(page, lang, E2E_OPERATOR_EMAIL, OPERATOR_PASSWORD);
        await page.getByText(ct(lang, 'auth.secondFactorHint')).waitFor();
        await enterCode(page, lang, code);
        await page.getByRole('heading', { name: ct(lang, 'nav.dashboard') }).waitFor();
        await page.getByRole('menuitem', { name: ct(lang, 'nav.operators') }).click();
        await page.getByRole('heading', { name: ct(lang, 'nav.operators') }).waitFor();
        const adminRow = page.getByRole('row').filter({ hasText: E2E_OPERATOR_EMAIL });
        await adminRow.getByText(ct(lang, 'operators.role.admin'), { exact: true }).waitFor();
        await adminRow.getByText(ct(lang, 'operators.totp')).waitFor();

        await page.getByRole('button', { name: ct(lang, 'operators.add') }).click();
        const dialog = page.getByRole('dialog', { name: ct(lang, 'operators.addTitle') });
        await dialog.getByLabel(ct(lang, 'operators.uid')).fill(String(me.uid));
        await dialog.getByLabel(ct(lang, 'operators.role.support')).uncheck();
        await dialog.getByLabel(ct(lang, 'operators.role.finance')).check();
        await dialog.getByLabel(ct(lang, 'common.reason')).fill(`e2e: ${lang} finance hire`);
        await dialog.getByRole('button', { name: ct(lang, 'common.save') }).click();
        const row = page.getByRole('row').filter({ hasText: member.email });
        await row.getByText(ct(lang, 'operators.role.finance'), { exact: true }).waitFor();
        await row.getByText(ct(lang, 'operators.noSecondFactor')).waitFor();
        expect(await row.getByText(ct(lang, 'operators.role.support'), { exact: true }).count()).toBe(0);

        // The new operator has no second factor: the console says to enrol one in the wallet.
        const theirs = await other.newPage();
        await signIn(theirs, lang, member.email, member.password);
        await theirs.getByText(ct(lang, 'auth.enrolTitle')).waitFor();
        await theirs.getByRole('link', { name: ct(lang, 'auth.openSecurityCentre') }).waitFor();

        // They enrol an authenticator in the wallet (here through its API) and sign in with a code.
        await must('/security/reauth', { token: member.token, body: { password: member.password } });
        const setup = await must<{ secret: string }>('/2fa/setup', { token: member.token, body: {} });
        await sendPreviousCode(setup.secret, (code) => must('/2fa/enable', { token: member.token, body: { code } }));
        await theirs.getByRole('button', { name: ct(lang, 'auth.leave') }).click();
        await signIn(theirs, lang, member.email, member.password);
        await enterCode(theirs, lang, codeFor(setup.secret));
        await theirs.getByRole('heading', { name: ct(lang, 'nav.dashboard') }).waitFor();
        // Finance sees its pages and the shared ones, nothing else.
        expect(await menuItems(theirs)).toEqual(
          ['nav.dashboard', 'nav.ledger', 'nav.withdrawals', 'nav.auditTrail', 'nav.alerts'].map((k) => ct(lang, k)),
        );
      } finally {
        await admin.close();
        await other.close();
      }
    },
  );

  it('signs out after the idle time and says why', async () => {
    const lang: Lang = 'en-US';
    const context = await newDesktop(browser, lang);
    try {
      const code = await operatorCode();
      const page = await context.newPage();
      await page.clock.install();
      await signIn(page, lang, E2E_OPERATOR_EMAIL, OPERATOR_PASSWORD);
      await enterCode(page, lang, code);
      await page.getByRole('heading', { name: ct(lang, 'nav.dashboard') }).waitFor();
      await page.clock.fastForward('31:00');
      await page
        .getByTestId('signed-out-reason')
        .getByText(ct(lang, 'auth.idleSignedOut', { minutes: 30 }))
        .waitFor();
      await page.getByRole('button', { name: ct(lang, 'auth.signIn'), exact: true }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('coffer.console.token'))).toBeNull();
    } finally {
      await context.close();
    }
  });
});
