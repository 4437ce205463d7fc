import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, newPhone, t, text, waitForPath } from './app';
import { apiTransfer, fund, must } from './wallet-support';

/**
 * Money events reach the notice center (docs/decisions/054): a received transfer raises the
 * badge on Me and reads in the user's language; the mail toggles live in Settings.
 */
describe.each(LANGS)('event notices (%s)', (lang) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser();
  });
  afterAll(() => browser?.close());

  it('a received transfer: badge on Me, the notice in the center with amount and currency; the money-mail switch turns on', async () => {
    const [sender, receiver] = await Promise.all([createUser(lang), createUser(lang)]);
    await fund(sender.email, '100');
    const context = await newPhone(browser, lang, { token: receiver.token });
    const page = await context.newPage();
    try {
      await apiTransfer(sender, receiver.email, '12.50');
      const title = lang === 'zh-CN' ? '收到转账 12.5 USDT' : 'Transfer received: 12.5 USDT';
      // the notice is written just after the transfer commits: Me shows it once it is there
      await expect
        .poll(async () => {
          await page.goto('/profile');
          return page.getByTestId('profile-notices-badge').count();
        })
        .toBe(1);
      await page.getByTestId('profile-notices').click();
      await waitForPath(page, '/noticeCenter');
      await page.getByText(title).click();
      await page.getByRole('heading', { name: title }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/noticeCenter/detail');
      expect(await text(page.getByTestId('notice-body').locator('strong'))).toBe('12.5 USDT');

      await page.goto('/settings');
      await page.getByText(t(lang, 'settings.moneyMail')).waitFor();
      await page.getByTestId('settings-money-mail').click();
      await expect
        .poll(async () => (await must<{ moneyMail: boolean }>('/user/notify-settings', { token: receiver.token })).moneyMail)
        .toBe(true);
    } finally {
      await context.close();
    }
  });
});
