import type { AdminUserDetail } from '@coffer/contract/admin';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, LANGS, type Lang } from './app';
import { fund, must, operatorToken } from './wallet-support';
import { ct, openConsoleAs } from './console-support';

/**
 * The console looks and reads like the product: the browser's language by default, the phone
 * app's teal, amounts right-aligned at the app's display precision, record types in words; and
 * an operator links two accounts on the user page.
 */

/** The phone app's text-and-controls teal (apps/web global.css --adm-color-primary). */
const BRAND_PRIMARY_RGB = 'rgb(0, 122, 120)';

const uidOf = async (token: string) => (await must<{ uid: number }>('/getCurrentUser', { token })).uid;

/** A desktop browser whose language is `lang`, with no language chosen in the console yet. */
const newDesktop = (browser: Browser, lang: Lang) =>
  browser.newContext({ viewport: { width: 1280, height: 800 }, locale: lang, baseURL: baseURL() });

const signInOperator = (page: Page, lang: Lang) => openConsoleAs(page, lang);

describe('console look', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it.each(LANGS)('opens in the browser language %s, in the brand colour, with nothing stored until the operator chooses', async (lang) => {
    const context = await newDesktop(browser, lang);
    try {
      const page = await context.newPage();
      await page.goto('/console/login');
      const signIn = page.getByRole('button', { name: ct(lang, 'auth.signIn'), exact: true });
      await signIn.waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      expect(await signIn.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(BRAND_PRIMARY_RGB);
      // Nothing is stored until the operator chooses.
      expect(await page.evaluate(() => localStorage.getItem('coffer.console.language'))).toBeNull();
    } finally {
      await context.close();
    }
  });

  it.each(LANGS)('in %s: amounts at the display precision on the right, record types in words, two accounts linked', async (lang) => {
    const member = await createUser(lang);
    const partner = await createUser(lang);
    await fund(member.email, '1234.5');
    const [uid, partnerUid] = [await uidOf(member.token), await uidOf(partner.token)];
    const context = await newDesktop(browser, lang);
    try {
      const page = await context.newPage();
      await signInOperator(page, lang);
      // The menu's selected item and the primary buttons carry the brand colour.
      const selected = page.locator('.ant-menu-item-selected').first();
      expect(await selected.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(BRAND_PRIMARY_RGB);

      await page.goto(`/console/users/${uid}`);
      await page.getByRole('heading', { name: member.email }).waitFor();
      // Balances: USDT at two decimals, grouped, right-aligned; the exact value is kept on the cell.
      const balances = page.locator('.ant-card', { hasText: ct(lang, 'users.balances') });
      const usdt = balances.getByRole('row').filter({ hasText: 'USDT' });
      const amount = usdt.locator('.amount').first();
      await expect.poll(() => amount.textContent()).toBe('1,234.50');
      expect(await amount.getAttribute('data-exact')).toMatch(/^1234\.5/);
      expect(await amount.evaluate((el) => getComputedStyle(el.closest('td') as Element).textAlign)).toBe('right');
      // The posting's record type in words (the funding is a ledger adjustment), not its code.
      const postings = page.locator('.ant-card', { hasText: ct(lang, 'users.postings') });
      const kind = postings.locator('[data-code="adjustment"]').first();
      await kind.waitFor();
      expect(await kind.textContent()).toBe(ct(lang, 'labels.entryKind.adjustment'));

      // Link the partner's account, with a reason; the card lists it, the API has it, the trail shows it in words.
      const links = page.getByTestId('user-links');
      await links.getByText(ct(lang, 'users.noLinks')).waitFor();
      await page.getByTestId('user-link-add').click();
      const dialog = page.getByRole('dialog', { name: ct(lang, 'users.linkTitle', { email: member.email }) });
      await dialog.getByLabel(ct(lang, 'users.linkUid')).fill(String(partnerUid));
      await dialog.getByLabel(ct(lang, 'common.reason')).fill('e2e: same household');
      await dialog.getByRole('button', { name: ct(lang, 'users.linkAdd') }).click();
      await page.getByText(ct(lang, 'users.linked'), { exact: true }).waitFor();
      await links.getByRole('cell', { name: partner.email, exact: true }).waitFor();
      const detail = await must<AdminUserDetail>(`/admin/users/${partnerUid}`, { token: await operatorToken() });
      expect(detail.links.map((l) => [l.uid, l.reason])).toEqual([[uid, 'e2e: same household']]);

      await page.goto('/console/audit-trail');
      await page.getByRole('heading', { name: ct(lang, 'nav.auditTrail') }).waitFor();
      await page
        .getByRole('cell', { name: new RegExp(`^${ct(lang, 'labels.auditAction.user.link')}`) })
        .first()
        .waitFor();
    } finally {
      await context.close();
    }
  });
});
