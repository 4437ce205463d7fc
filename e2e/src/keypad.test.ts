import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, newPhone, type TestUser, t, text } from './app';
import { fund, openPage } from './wallet-support';

/** The amount field on /transfer: a button named by its label ("Amount", then "Amount: 12.5 USDT"). */
function amountField(page: Page, lang: Lang) {
  return page.getByRole('button', { name: new RegExp(t(lang, 'transfer.amount'), 'i') });
}

/** The keypad's confirm key: present only while the keypad is open. */
function keypadConfirm(page: Page, lang: Lang) {
  return page.getByRole('button', { name: t(lang, 'common.confirm'), exact: true });
}

describe.each(LANGS)('wallet: amount keypad (%s)', (lang) => {
  let browser: Browser;
  let user: TestUser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await connectBrowser();
    user = await createUser(lang);
    await fund(user.email, '100');
    context = await newPhone(browser, lang, { token: user.token });
    page = await openPage(context);
    await page.goto('/transfer');
    await amountField(page, lang).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('takes digits, the point, Backspace and Enter from a hardware keyboard', async () => {
    await amountField(page, lang).click();
    await keypadConfirm(page, lang).waitFor();
    await page.keyboard.type('12.5');
    await expect.poll(() => text(amountField(page, lang))).toContain('12.5');
    await page.keyboard.press('Backspace');
    await expect.poll(() => text(amountField(page, lang))).not.toContain('12.5');
    expect(await text(amountField(page, lang))).toContain('12.');
    await page.keyboard.press('Enter');
    await keypadConfirm(page, lang).waitFor({ state: 'hidden' });
  });

  it('says so when a decimal beyond the currency allows is dropped', async () => {
    await amountField(page, lang).click();
    await keypadConfirm(page, lang).waitFor();
    // "12." is there; USDT has 6 decimals, the seventh is refused.
    await page.keyboard.type('1234567');
    await expect.poll(() => text(amountField(page, lang))).toContain('12.123456');
    expect(await text(amountField(page, lang))).not.toContain('1234567');
    const hint = page.getByText(t(lang, 'keypad.decimalsDropped', { code: 'USDT', decimals: 6 }));
    await hint.waitFor();
    // The next accepted key clears the hint.
    await page.keyboard.press('Backspace');
    await hint.waitFor({ state: 'hidden' });
  });

  it('closes when another field takes the focus', async () => {
    await amountField(page, lang).click();
    await keypadConfirm(page, lang).waitFor();
    await page.getByRole('textbox', { name: t(lang, 'transfer.recipient'), exact: true }).click();
    await keypadConfirm(page, lang).waitFor({ state: 'hidden' });
    // Typing now goes to the e-mail field, not the amount.
    await page.keyboard.type('7');
    expect(await text(amountField(page, lang))).toContain('12.12345');
    expect(await text(amountField(page, lang))).not.toContain('12.123457');
  });

  it('keeps the point typed right after opening while the currency list is slow', async () => {
    // The field waits for its currency: a keypad opened before the decimals are known once
    // refused the point as if the currency had none (a flake on a loaded runner).
    const slow = await openPage(context);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await slow.route('**/api/currency/list', async (route) => {
      await held;
      await route.continue();
    });
    await slow.goto('/transfer');
    const field = amountField(slow, lang);
    await field.waitFor();
    expect(await field.isDisabled()).toBe(true);
    release();
    await field.click();
    await keypadConfirm(slow, lang).waitFor();
    await slow.keyboard.type('0.5');
    await expect.poll(() => text(amountField(slow, lang))).toContain('0.5');
    await slow.close();
  });
});
