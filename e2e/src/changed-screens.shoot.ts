import type { WithdrawRecord } from '@coffer/contract/chain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { connectBrowser, createUser, type Lang, type TestUser, t, text, waitForToast } from './app';
import { apiTransfer, fund, must, openPage, operatorToken, apiWithdrawEth } from './wallet-support';
import { capture, shootInEveryLook, shotPhone } from './shoot-support';

/**
 * The phone app's newer screens into docs/screenshots (listed in docs/screenshots.md): a record's exact amount one tap away (decision 059),
 * and the small toast its copy action leaves, the notification settings (decision 054), recent recipients on /transfer, a refunded
 * withdrawal and the notice center with the notices events leave.
 * `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts src/changed-screens.shoot.ts`.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const OUTSIDE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

/** A withdrawal above the review threshold (it waits), rejected by an operator: its hold comes back. */
async function refundedWithdrawal(user: TestUser, lang: Lang): Promise<WithdrawRecord> {
  const w = await apiWithdrawEth(user, '52', OUTSIDE);
  expect(w.status).toBe('review');
  const reason = lang === 'zh-CN' ? '收款地址未通过核验' : 'The destination did not pass screening';
  return must<WithdrawRecord>(`/admin/withdraw/${w.id}/reject`, { token: await operatorToken(), body: { reason } });
}

async function shootChanged(lang: Lang, prefix: string, theme?: 'dark') {
  const [user, friend] = await Promise.all([
    createUser(lang, lang === 'zh-CN' ? '林小满' : 'Avery Chen'),
    createUser(lang, lang === 'zh-CN' ? '周一鸣' : 'Jordan Lee'),
  ]);
  await fund(user.email, '1000');
  await fund(user.email, '100', 'ETH');
  await fund(friend.email, '100');
  // 1.005 USDT reads 1.01 at USDT's two decimals (sent rounds up): the exact value is a tap away.
  const transfer = await apiTransfer(user, friend.email, '1.005', lang === 'zh-CN' ? '咖啡' : 'coffee');
  // Money coming in and a refunded withdrawal leave notices in the notice center.
  await apiTransfer(friend, user.email, '20', lang === 'zh-CN' ? '还你午饭钱' : 'lunch, thanks');
  const withdrawal = await refundedWithdrawal(user, lang);
  const context = await shotPhone(browser, lang, user.token, theme);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await openPage(context);
  try {
    await page.goto(`/bill/detail?type=transfer&id=${transfer.id}`);
    const amount = page.getByTestId('detail-amount');
    await expect.poll(() => text(amount)).toBe('-1.01 USDT');
    await amount.click();
    await expect.poll(() => text(amount)).toBe('-1.005 USDT');
    await page.getByTestId('detail-amount-copy').waitFor();
    await capture(page, `${prefix}-amount-exact`);
    // The small toast a copy leaves (decision 059's copy action), taken while it shows.
    await page.getByTestId('detail-amount-copy').click();
    await waitForToast(page, t(lang, 'chain.copied'));
    await capture(page, `${prefix}-toast-copied`, { waitForToasts: false });

    await shootSettings(page, prefix);

    if (!theme) {
      await page.goto('/transfer');
      await page.getByTestId('recent-recipients').getByText(friend.nickname).waitFor();
      await capture(page, `${prefix}-transfer-recent`);

      await page.goto(`/bill/detail?type=withdraw&id=${withdrawal.id}`);
      await page.getByTestId('bill-detail-withdraw').waitFor();
      await capture(page, `${prefix}-withdraw-refunded`, { fullPage: true });

      await page.goto('/noticeCenter');
      await page.locator('[data-testid^=notice-row-]').first().waitFor();
      await capture(page, `${prefix}-notice-events`);
    }
  } finally {
    await context.close();
  }
}

/** /settings whole, with the mail (and push) switches as a new user finds them: money off, security on. */
async function shootSettings(page: Page, prefix: string) {
  await page.goto('/settings');
  const money = page.getByTestId('settings-money-mail');
  // Enabled once the user's settings have loaded (the switches are disabled before).
  await expect.poll(() => money.getAttribute('aria-disabled')).toBe('false');
  expect(await money.getAttribute('aria-checked')).toBe('false');
  expect(await page.getByTestId('settings-security-mail').getAttribute('aria-checked')).toBe('true');
  await capture(page, `${prefix}-settings-notifications`, { fullPage: true });
}

shootInEveryLook('newer phone screens', shootChanged);
