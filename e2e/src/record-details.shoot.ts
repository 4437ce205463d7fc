import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, newPhone, t } from './app';
import { apiSwap, apiTransfer, fund, openPage } from './wallet-support';
import { capture } from './shoot-support';

/**
 * Decision 020 screens into docs/screenshots: transfer and swap details in plain words,
 * the keypad's dropped-decimal hint, the recipient found while typing.
 * `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts src/record-details.shoot.ts`.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shootDetails(lang: Lang) {
  const [user, friend] = await Promise.all([
    createUser(lang, lang === 'zh-CN' ? '林小满' : 'Avery Chen'),
    createUser(lang, lang === 'zh-CN' ? '周一鸣' : 'Jordan Lee'),
  ]);
  await fund(user.email, '1000');
  const transfer = await apiTransfer(user, friend.email, '25.5', lang === 'zh-CN' ? '午饭' : 'lunch');
  const swap = await apiSwap(user, 'USDT', 'ETH', '100');
  const context = await newPhone(browser, lang, { token: user.token, deviceScaleFactor: 2 });
  const page = await openPage(context);
  try {
    await page.goto(`/bill/detail?type=transfer&id=${transfer.id}`);
    await page.getByTestId('detail-summary').waitFor();
    await capture(page, `${lang}-transfer-detail`);
    await page.goto(`/bill/detail?type=swap&id=${swap.id}`);
    await page.getByTestId('detail-summary').waitFor();
    await capture(page, `${lang}-swap-detail`);

    await page.goto('/transfer');
    await page.getByRole('textbox', { name: t(lang, 'transfer.recipient'), exact: true }).pressSequentially(friend.email);
    await page.getByTestId('recipient-preview').waitFor();
    await page.getByRole('button', { name: new RegExp(t(lang, 'transfer.amount'), 'i') }).click();
    await page.keyboard.type('12.1234567');
    await page.getByText(t(lang, 'keypad.decimalsDropped', { code: 'USDT', decimals: 6 })).waitFor();
    await capture(page, `${lang}-transfer-keypad`);
  } finally {
    await context.close();
  }
}

it.each(LANGS)('record detail and transfer screens in %s', async (lang) => {
  await shootDetails(lang);
});
