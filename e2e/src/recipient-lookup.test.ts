import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, newPhone, type TestUser, t } from './app';
import { must, openPage } from './wallet-support';

/** Longer than the lookup's debounce (400 ms) plus a round trip. */
const SETTLE_MS = 1200;

/** The recipient field (one label for both modes; the placeholder says e-mail or UID). */
function recipientBox(page: Page, lang: Lang) {
  return page.getByRole('textbox', { name: t(lang, 'transfer.recipient'), exact: true });
}

describe.each(LANGS)('wallet: recipient lookup (%s)', (lang) => {
  let browser: Browser;
  let sender: TestUser;
  let receiver: TestUser;
  let context: BrowserContext;
  let page: Page;
  const lookups: string[] = [];

  beforeAll(async () => {
    browser = await connectBrowser();
    [sender, receiver] = await Promise.all([createUser(lang), createUser(lang, lang === 'zh-CN' ? '查询对象' : 'Lookup Target')]);
    context = await newPhone(browser, lang, { token: sender.token });
    page = await openPage(context);
    page.on('request', (request) => {
      if (request.url().includes('/api/transfer/recipient')) lookups.push(request.url());
    });
    await page.goto('/transfer');
    await recipientBox(page, lang).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('does not ask the server while the e-mail is incomplete', async () => {
    await recipientBox(page, lang).pressSequentially('someone@', { delay: 20 });
    await page.waitForTimeout(SETTLE_MS);
    expect(lookups).toHaveLength(0);
    await recipientBox(page, lang).fill('');
  });

  it('looks the recipient up by itself once a valid e-mail is typed, once', async () => {
    await recipientBox(page, lang).pressSequentially(receiver.email, { delay: 20 });
    await page.getByText(receiver.nickname).waitFor();
    await page.waitForTimeout(SETTLE_MS);
    // Keys typed faster than the debounce make one request, not one per key.
    expect(lookups).toHaveLength(1);
  });

  it('looks the recipient up by UID, and not for a malformed UID', async () => {
    const { uid } = await must<{ uid: number }>('/getCurrentUser', { token: receiver.token });
    await page.getByRole('tab', { name: t(lang, 'transfer.byUid') }).click();
    await recipientBox(page, lang).fill('0');
    await page.waitForTimeout(SETTLE_MS);
    expect(lookups).toHaveLength(1);
    await recipientBox(page, lang).fill(String(uid));
    await page.getByText(receiver.nickname).waitFor();
    expect(lookups).toHaveLength(2);
  });
});
