import { ErrorCode, errorMessages } from '@coffer/contract/errors';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { connectBrowser, createUser, type Lang, t } from './app';
import { apiSwap, apiTransfer, fund, openPage } from './wallet-support';
import { capture, shootInEveryLook, shotPhone } from './shoot-support';

/**
 * Screens of decisions 021 and 022 changed last: a refusal said under its field (transfer's recipient), the
 * records tabs and the statement's filters as keyboard-reachable buttons (filter open).
 * `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts src/forms.shoot.ts`.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shootForms(lang: Lang, prefix: string, theme?: 'dark') {
  const user = await createUser(lang, lang === 'zh-CN' ? '林小满' : 'Avery Chen');
  const friend = await createUser(lang, lang === 'zh-CN' ? '周一' : 'Sam Lee');
  await fund(user.email, '1000');
  await apiTransfer(user, friend.email, '12.5', 'lunch');
  await apiSwap(user, 'USDT', 'ETH', '100');
  const context = await shotPhone(browser, lang, user.token, theme);
  const page = await openPage(context);
  try {
    await page.goto('/transfer');
    const recipient = page.getByRole('textbox', { name: t(lang, 'transfer.recipient') });
    await recipient.fill('nobody@example.com');
    await page.getByTestId('recipient-check').click();
    await page.getByText(errorMessages[lang][ErrorCode.RECIPIENT_NOT_FOUND]).waitFor();
    await capture(page, `${prefix}-transfer-inline-error`);

    await page.goto('/bill?type=swap');
    await page.locator('[data-testid^=swap-row-]').first().waitFor();
    await capture(page, `${prefix}-bill-tabs`);

    await page.goto('/bill/all');
    await page.locator('[data-testid^=turnover-row-]').first().waitFor();
    await page.getByTestId('filter-type').click();
    await page.getByRole('group', { name: t(lang, 'statement.filters.type') }).waitFor();
    await capture(page, `${prefix}-statement-filter`);
  } finally {
    await context.close();
  }
}

shootInEveryLook('form screens', shootForms);
