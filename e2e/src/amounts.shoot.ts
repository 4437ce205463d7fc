import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { connectBrowser, createUser, type Lang, t } from './app';
import { apiSwap, fund, openPage, typeAmount } from './wallet-support';
import { capture, shootInEveryLook, shotPhone } from './shoot-support';

/**
 * Decision 019 screens into docs/screenshots: home with each asset's USDT value and the
 * hide-balances switch, and the swap quote at display precision with the natural rate.
 * `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts src/amounts.shoot.ts`.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shootAmounts(lang: Lang, prefix: string, theme?: 'dark') {
  const user = await createUser(lang, lang === 'zh-CN' ? '林小满' : 'Avery Chen');
  await fund(user.email, '1000');
  await apiSwap(user, 'USDT', 'ETH', '100');
  const context = await shotPhone(browser, lang, user.token, theme);
  const page = await openPage(context);
  try {
    await page.goto('/');
    await page.getByTestId('balance-ETH-fiat').waitFor();
    await capture(page, `${prefix}-home-amounts`);
    await page.getByRole('button', { name: t(lang, 'assets.hideBalances') }).click();
    await capture(page, `${prefix}-home-hidden`);
    await page.getByRole('button', { name: t(lang, 'assets.showBalances') }).click();

    await page.goto('/swap');
    await page.getByTestId('swap-to').click();
    await page.getByTestId('currency-option-ETH').click();
    await typeAmount(page, '100');
    await page.getByRole('button', { name: t(lang, 'swap.getQuote') }).click();
    await page.getByTestId('swap-quote-panel').waitFor();
    await capture(page, `${prefix}-swap-quote`);
  } finally {
    await context.close();
  }
}

shootInEveryLook('amount screens', shootAmounts, 'en-US');
