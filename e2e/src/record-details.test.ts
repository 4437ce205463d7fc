import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, LANGS, type Lang, newPhone, type TestUser, t, text } from './app';
import { apiSwap, apiTransfer, fund, must, openPage } from './wallet-support';

/** Bookkeeping words and internal ids that record details must not show (issue 9 item 6). */
function bookkeepingWords(lang: Lang): string[] {
  return lang === 'zh-CN' ? ['凭证编号', '报价编号', '记账明细', '账户'] : ['Entry ID', 'Quote ID', 'Postings', 'Account'];
}

async function expectPlain(page: Page, lang: Lang) {
  const body = await text(page.getByTestId('bill-detail'));
  for (const word of bookkeepingWords(lang)) expect(body, word).not.toContain(word);
}

describe.each(LANGS)('wallet: record details in plain language (%s)', (lang) => {
  let browser: Browser;
  let owner: TestUser;
  let friend: TestUser;
  let context: BrowserContext;
  let page: Page;
  let transferId: number;
  let swapId: number;

  beforeAll(async () => {
    browser = await connectBrowser();
    [owner, friend] = await Promise.all([
      createUser(lang, lang === 'zh-CN' ? '明细主' : 'Detail Owner'),
      createUser(lang, lang === 'zh-CN' ? '收款朋友' : 'Payee Friend'),
    ]);
    await fund(owner.email, '200');
    transferId = (await apiTransfer(owner, friend.email, '9.5', 'rent')).id;
    swapId = (await apiSwap(owner, 'USDT', 'ETH', '20')).id;
    context = await newPhone(browser, lang, { token: owner.token });
    page = await openPage(context);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('a transfer says what happened, to whom, the fee, with a copyable reference', async () => {
    await page.goto(`/bill/detail?type=transfer&id=${transferId}`);
    await page.getByTestId('bill-detail-transfer').waitFor();
    await page.getByText(t(lang, 'bill.summary.transferOut', { amount: '9.5', code: 'USDT', name: friend.nickname })).waitFor();
    expect(await text(page.getByTestId('detail-id'))).toBe(String(transferId));
    await page.getByRole('button', { name: t(lang, 'bill.copyReference') }).waitFor();
    expect(await text(page.getByTestId('detail-counterparty'))).toContain(friend.nickname);
    expect(await text(page.getByTestId('detail-fee'))).toBe('0 USDT');
    await expectPlain(page, lang);
  });

  it('a swap says what was paid and received, the rate and the fee, without quote or entry ids', async () => {
    await page.goto(`/bill/detail?type=swap&id=${swapId}`);
    await page.getByTestId('bill-detail-swap').waitFor();
    await page.getByText(new RegExp(t(lang, 'bill.summary.swap', { paid: '20 USDT', received: '(.+) ETH' }))).waitFor();
    await page.getByRole('button', { name: t(lang, 'bill.copyReference') }).waitFor();
    expect(await text(page.getByTestId('detail-rate'))).toMatch(/^1 ETH ≈ [\d,.]+ USDT$/);
    expect(await text(page.getByTestId('detail-fee'))).toMatch(/ ETH$/);
    await expectPlain(page, lang);
  });

  it('a statement line uses the same words as the CSV export', async () => {
    const lines = await must<{ list: { id: number; type: string }[] }>('/getTurnover', {
      token: owner.token,
      body: { page: 1, pageSize: 20 },
    });
    const adjustment = lines.list.find((line) => line.type === 'adjustment')!;
    await page.goto(`/bill/detail?type=turnover&id=${adjustment.id}`);
    const label = t(lang, 'statement.types.adjustment');
    await expect.poll(() => text(page.getByTestId('detail-type'))).toBe(label);
    await expectPlain(page, lang);

    const csv = await fetch(`${baseURL()}/api/turnover/export.csv`, {
      headers: { 'x-token': owner.token, 'accept-language': lang },
    }).then((r) => r.text());
    const row = csv.split('\r\n').find((line) => line.startsWith(`${adjustment.id},`))!;
    expect(row.split(',')[2]).toBe(label);
  });
});
