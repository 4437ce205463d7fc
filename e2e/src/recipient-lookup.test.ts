import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, newPhone, type TestUser, t } from './app';
import { must, openPage } from './wallet-support';

/**
 * The lookup's debounce (apps/web/src/features/transfer/hooks/use-recipient-lookup.ts). The
 * page's clock is paused (page.clock), so its timers fire only when a test moves that clock:
 * "after the debounce" is a moment the test makes, not a guess at how long to sleep.
 */
const LOOKUP_DEBOUNCE_MS = 400;
/** Page time between two keys: well inside the debounce, so a lookup per key would show. */
const KEY_GAP_MS = 50;

/** The recipient field (one label for both modes; the placeholder says e-mail or UID). */
function recipientBox(page: Page, lang: Lang) {
  return page.getByRole('textbox', { name: t(lang, 'transfer.recipient'), exact: true });
}

/** Types `text` key by key, the page's clock moving KEY_GAP_MS between keys. */
async function typeSlowly(page: Page, lang: Lang, text: string) {
  for (const key of text) {
    await recipientBox(page, lang).press(key);
    await page.clock.runFor(KEY_GAP_MS);
  }
}

/** Moves the page's clock past the debounce: a lookup the text asks for has started. */
const pastDebounce = (page: Page) => page.clock.runFor(LOOKUP_DEBOUNCE_MS + 1);

describe.each(LANGS)('wallet: recipient lookup (%s)', (lang) => {
  let browser: Browser;
  let sender: TestUser;
  let receiver: TestUser;
  let context: BrowserContext;
  let page: Page;
  // Every lookup the page starts, in the order it starts them.
  const lookups: string[] = [];
  const lookupOf = (query: string) => page.waitForRequest((request) => request.url().includes(`/api/transfer/recipient?${query}`));

  beforeAll(async () => {
    browser = await connectBrowser();
    [sender, receiver] = await Promise.all([createUser(lang), createUser(lang, lang === 'zh-CN' ? '查询对象' : 'Lookup Target')]);
    context = await newPhone(browser, lang, { token: sender.token });
    page = await openPage(context);
    page.on('request', (request) => {
      if (request.url().includes('/api/transfer/recipient')) lookups.push(new URL(request.url()).search);
    });
    await page.clock.install();
    await page.goto('/transfer');
    await recipientBox(page, lang).waitFor();
    // The page has loaded on a running clock; from here on it moves only when a test moves it.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('does not ask the server while the e-mail is incomplete', async () => {
    lookups.length = 0;
    await typeSlowly(page, lang, 'someone@');
    await pastDebounce(page);
    // The same text made whole is looked up: that lookup is reported after any the incomplete
    // text could have started, so it being the only one means there was none before it.
    const whole = lookupOf(`email=${encodeURIComponent('someone@example.com')}`);
    await typeSlowly(page, lang, 'example.com');
    await pastDebounce(page);
    await whole;
    expect(lookups).toEqual([`?email=${encodeURIComponent('someone@example.com')}`]);
    await recipientBox(page, lang).fill('');
  });

  it('looks the recipient up by itself once a valid e-mail is typed, once', async () => {
    lookups.length = 0;
    await typeSlowly(page, lang, receiver.email);
    await pastDebounce(page);
    await page.getByText(receiver.nickname).waitFor();
    // Any later lookup of the same text (a second timer, a lookup per key) has started by now;
    // the check button's own lookup comes after it, so what came between is in the list.
    await pastDebounce(page);
    const checked = lookupOf(`email=${encodeURIComponent(receiver.email)}`);
    await page.getByTestId('recipient-check').click();
    await checked;
    // Keys typed faster than the debounce make one request, not one per key.
    expect(lookups).toEqual([`?email=${encodeURIComponent(receiver.email)}`, `?email=${encodeURIComponent(receiver.email)}`]);
  });

  it('looks the recipient up by UID, and not for a malformed UID', async () => {
    const { uid } = await must<{ uid: number }>('/getCurrentUser', { token: receiver.token });
    await page.getByRole('tab', { name: t(lang, 'transfer.byUid') }).click();
    lookups.length = 0;
    await recipientBox(page, lang).fill('0');
    await pastDebounce(page);
    // The good UID's lookup comes after any the malformed one could have started.
    const good = lookupOf(`uid=${uid}`);
    await recipientBox(page, lang).fill(String(uid));
    await pastDebounce(page);
    await good;
    await page.getByText(receiver.nickname).waitFor();
    expect(lookups).toEqual([`?uid=${uid}`]);
  });
});
