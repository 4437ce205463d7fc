import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, navTitle, newPhone, type TestUser, t, text } from './app';
import { apiSwap, apiTransfer, fund, openPage } from './wallet-support';

/** Small credits so the statement runs past its first page (20 lines). */
const EXTRA_CREDITS = 18;

async function pickFilter(page: Page, filter: string, option: string) {
  await page.getByTestId(filter).click();
  await page.locator('.bill-filter-panel').getByRole('button', { name: option, exact: true }).click();
  await expect.poll(() => text(page.getByTestId(filter))).toBe(option);
}

function rows(page: Page, kind: 'transfer' | 'swap' | 'turnover') {
  return page.locator(`[data-testid^=${kind}-row-]`);
}

describe.each(LANGS)('wallet: bills and statement (%s)', (lang: Lang) => {
  let browser: Browser;
  let owner: TestUser;
  let friend: TestUser;
  let context: BrowserContext;
  let page: Page;
  let swapId: number;
  let swapRef: number;

  beforeAll(async () => {
    browser = await connectBrowser();
    [owner, friend] = await Promise.all([
      createUser(lang, lang === 'zh-CN' ? '账单主' : 'Owner'),
      createUser(lang, lang === 'zh-CN' ? '朋友' : 'Friend'),
    ]);
    await fund(owner.email, '500');
    for (let i = 0; i < EXTRA_CREDITS; i += 1) await fund(owner.email, '0.01');
    await apiTransfer(owner, friend.email, '7', 'first');
    await apiTransfer(owner, friend.email, '8.25', 'second');
    ({ id: swapId, entryId: swapRef } = await apiSwap(owner, 'USDT', 'ETH', '30'));
    context = await newPhone(browser, lang, { token: owner.token });
    page = await openPage(context);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('lists transfers and swaps, switches type, and opens details', async () => {
    await page.goto('/bill?type=transfer');
    await expect.poll(() => rows(page, 'transfer').count()).toBe(2);
    expect(await text(rows(page, 'transfer').first())).toContain('-8.25 USDT');
    await expect.poll(() => navTitle(page)).toBe(t(lang, 'routes.billTransfer'));

    await page.getByRole('tab', { name: t(lang, 'bill.tabs.swap') }).click();
    await page.waitForURL((url) => url.search === '?type=swap');
    await expect.poll(() => navTitle(page)).toBe(t(lang, 'routes.billSwap'));
    await expect.poll(() => rows(page, 'swap').count()).toBe(1);
    await rows(page, 'swap').first().click();
    await page.waitForURL((url) => url.search === `?type=swap&id=${swapId}`);
    await expect.poll(() => text(page.getByTestId('detail-paid'))).toBe('-30 USDT');
    // The swap's reference is its transaction's, as on its statement lines (decision 053).
    expect(await text(page.getByTestId('detail-id'))).toBe(String(swapRef));
  });

  it('shows charge and withdraw lists as empty, and unknown records as not found', async () => {
    await page.goto('/bill?type=charge');
    const empty = page.getByTestId('bill-charge-empty');
    await expect.poll(() => text(empty)).toContain(t(lang, 'bill.empty.chargeHint'));
    await empty.locator('.adm-error-block').waitFor();
    await page.goto('/bill?type=withdraw');
    await page.getByTestId('bill-withdraw-empty').waitFor();

    await page.goto('/bill/detail?type=swap&id=999999999');
    await expect.poll(() => text(page.getByTestId('bill-not-found'))).toContain(t(lang, 'bill.notFound'));
    await page.goto('/bill/detail?type=transfer&id=abc');
    await page.getByTestId('bill-not-found').waitFor();
  });

  it('scrolls the statement, filters it and opens a line', async () => {
    await page.goto('/bill/all');
    // 19 credits + 2 transfers + 2 swap postings.
    const total = 1 + EXTRA_CREDITS + 2 + 2;
    await expect.poll(() => rows(page, 'turnover').count()).toBe(20);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => rows(page, 'turnover').count()).toBe(total);

    await pickFilter(page, 'filter-type', t(lang, 'statement.types.swap'));
    await expect.poll(() => rows(page, 'turnover').count()).toBe(2);
    await pickFilter(page, 'filter-currency', 'ETH');
    await expect.poll(() => rows(page, 'turnover').count()).toBe(1);
    expect(page.url()).toContain('type=swap');
    await pickFilter(page, 'filter-period', t(lang, 'statement.periods.today'));
    await expect.poll(() => rows(page, 'turnover').count()).toBe(1);

    const line = rows(page, 'turnover').first();
    expect(await text(line.getByTestId('turnover-type'))).toBe(t(lang, 'statement.types.swap'));
    await line.click();
    await page.waitForURL(/\/bill\/detail\?type=turnover&id=\d+$/);
    await expect.poll(() => text(page.getByTestId('detail-type'))).toBe(t(lang, 'statement.types.swap'));
    expect(await text(page.getByTestId('detail-amount'))).toMatch(/^\+0\.0\d+ ETH$/);

    await page.goBack();
    await pickFilter(page, 'filter-type', t(lang, 'statement.types.transfer_out'));
    await page.getByTestId('statement-list-empty').waitFor();
  });

  it('exports the filtered statement as CSV with the session header', async () => {
    await page.goto('/bill/all?type=transfer_out');
    await expect.poll(() => rows(page, 'turnover').count()).toBe(2);
    const request = page.waitForRequest((r) => r.url().includes('/api/turnover/export.csv'));
    const download = page.waitForEvent('download');
    await page.getByTestId('statement-export').click();
    expect((await request).headers()['x-token']).toBe(owner.token);
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^coffer-statement-\d{8}\.csv$/);
    const saved = join(mkdtempSync(join(tmpdir(), 'coffer-csv-')), file.suggestedFilename());
    await file.saveAs(saved);
    const csv = readFileSync(saved, 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).join('\n')).toContain('-8.25');
  });

  it('shows an empty swap list to someone who never swapped', async () => {
    const other = await newPhone(browser, lang, { token: friend.token });
    const friendPage = await openPage(other);
    try {
      await friendPage.goto('/bill?type=swap');
      const empty = friendPage.getByTestId('bill-swap-empty');
      await expect.poll(() => text(empty)).toContain(t(lang, 'bill.empty.swap'));
    } finally {
      await other.close();
    }
  });
});
