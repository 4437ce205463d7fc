import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, newPhone, type TestUser, t, text } from './app';
import { apiTransfer, fund, openPage } from './wallet-support';

/**
 * Decision 022: long names truncate while amounts and statuses stay on screen, the
 * record lists group by day under a header in the user's locale, and the statement's
 * custom range reaches at least a year back.
 */

/** The longest nickname the contract allows (NICKNAME_MAX). */
const LONG_NAME = 'W'.repeat(32);

/** A day header as the app writes it: the local date, long form, in the interface language. */
function dayHeader(lang: Lang, date: Date): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(date);
}

async function insideViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5 && box.width > 0;
}

describe.each(LANGS)('bill layout (%s)', (lang: Lang) => {
  let browser: Browser;
  let owner: TestUser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await connectBrowser();
    let longNamed: TestUser;
    [owner, longNamed] = await Promise.all([createUser(lang), createUser(lang, LONG_NAME)]);
    await fund(owner.email, '5000');
    await apiTransfer(owner, longNamed.email, '1234.56');
    await fund(longNamed.email, '1');
    await apiTransfer(longNamed, owner.email, '0.5');
    context = await newPhone(browser, lang, { token: owner.token });
    page = await openPage(context);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('truncates a 32-character nickname and keeps amount and status on screen', async () => {
    await page.goto('/bill?type=transfer');
    const rows = page.locator('[data-testid^=transfer-row-]');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    for (const row of await rows.all()) {
      const name = row.getByText(LONG_NAME, { exact: false });
      expect(await name.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
      expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      expect(await insideViewport(page, name)).toBe(true);
      const status = row.getByText(t(lang, 'bill.status.success'), { exact: true });
      expect(await insideViewport(page, status)).toBe(true);
    }
    expect(await insideViewport(page, rows.first().getByText('+0.5 USDT'))).toBe(true);
    expect(await insideViewport(page, rows.nth(1).getByText(/-1,?234\.56 USDT/))).toBe(true);
  });

  it('groups transfers and statement lines under a header for their day', async () => {
    const today = dayHeader(lang, new Date());
    await page.goto('/bill?type=transfer');
    const header = page.getByRole('heading', { name: today, exact: true });
    await header.waitFor();
    expect(await header.count()).toBe(1);

    await page.goto('/bill/all');
    await page.locator('[data-testid^=turnover-row-]').first().waitFor();
    expect(await page.getByRole('heading', { name: today, exact: true }).count()).toBe(1);
  });

  it('starts a new header when the day changes', async () => {
    // Two days of history cannot be made through the API (the server stamps the time),
    // so this page of the list is answered here; midday UTC keeps the day in any zone.
    const days = ['2026-03-05T12:00:00Z', '2026-03-05T11:00:00Z', '2026-03-04T12:00:00Z'];
    await page.route('**/api/transfer/clientPage', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          code: 0,
          message: 'ok',
          data: {
            total: days.length,
            page: 1,
            pageSize: 20,
            list: days.map((createdAt, i) => ({
              id: 900_000 + i,
              direction: 'out',
              currencyId: 1,
              code: 'USDT',
              amount: '1',
              memo: null,
              counterparty: { uid: 1, nickname: 'Friend', maskedEmail: 'f***@example.com', avatar: null },
              status: 'success',
              createdAt,
            })),
          },
        }),
      }),
    );
    try {
      await page.goto('/bill?type=transfer');
      await page.getByTestId('transfer-row-900002').waitFor();
      const headings = page.locator('[data-testid=bill-transfer]').getByRole('heading');
      expect(await headings.allTextContents()).toEqual([dayHeader(lang, new Date(days[0]!)), dayHeader(lang, new Date(days[2]!))]);
    } finally {
      await page.unroute('**/api/transfer/clientPage');
    }
  });

  it('lets the custom statement range start a year back', async () => {
    await page.goto('/bill/all');
    await page.getByTestId('filter-period').click();
    await page
      .locator('.bill-filter-panel')
      .getByRole('button', { name: t(lang, 'statement.periods.custom'), exact: true })
      .click();
    const now = new Date();
    const yearAgo = new Date(now.getFullYear() - 1, now.getMonth(), 1);
    const month = page.locator(`.adm-calendar-picker-view [data-year-month="${yearAgo.getFullYear()}-${yearAgo.getMonth() + 1}"]`);
    await month.waitFor({ state: 'attached' });
    const day = (n: number) =>
      month.locator('.adm-calendar-picker-view-cell:not(.adm-calendar-picker-view-cell-disabled)').filter({
        has: page.locator('.adm-calendar-picker-view-cell-date', { hasText: new RegExp(`^${n}$`) }),
      });
    await day(1).scrollIntoViewIfNeeded();
    await day(1).click();
    await day(2).click();
    await page.locator('.adm-calendar-picker-footer .adm-button').click();
    const start = `${yearAgo.getFullYear()}-${String(yearAgo.getMonth() + 1).padStart(2, '0')}-01`;
    await page.waitForURL((url) => url.searchParams.get('start') === start);
    await expect.poll(() => text(page.getByTestId('statement-range'))).toContain(start);
  });
});
