import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, newPhone, type TestUser, t, text } from './app';
import { fund, openPage, typeAmount } from './wallet-support';

/*
 * One amount reads one way everywhere (docs/decisions/053-one-amount-one-reference.md). With
 * the seeded USDT → ETH pair (mid 0.000333333333333333, spread 30 bps, fee 10 bps taken in
 * ETH), selling 100 USDT yields exactly 0.033199 ETH with a fee of 0.000034 ETH: the swap
 * itself rounds to ETH's display precision (received down, fee up), so the estimate, the quote,
 * the record and home say the same string. Every amount, error messages included, shows its
 * currency's display precision with trailing zeros trimmed.
 */
const RECEIVE = '0.033199 ETH';
const FEE = '0.000034 ETH';
const RATE = '1 ETH ≈ 3,009.03 USDT';

describe.each(LANGS)('amounts read one way (%s)', (lang) => {
  let browser: Browser;
  let user: TestUser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await connectBrowser();
    user = await createUser(lang, lang === 'zh-CN' ? '金额' : 'Amounts');
    await fund(user.email, '1000');
    context = await newPhone(browser, lang, { token: user.token });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('the estimate, the quote and home agree, at the display precision, with a natural rate', async () => {
    const page = await openPage(context);
    await page.goto('/swap');
    await page.getByTestId('swap-to').click();
    await page.getByTestId('currency-option-ETH').click();
    await expect.poll(() => text(page.getByTestId('swap-rate'))).toBe(RATE);

    await typeAmount(page, '100');
    await expect.poll(() => text(page.getByTestId('swap-estimate'))).toBe(`≈ ${RECEIVE}`);
    await page.getByRole('button', { name: t(lang, 'swap.getQuote') }).click();
    await page.getByTestId('swap-quote-panel').waitFor();
    expect(await text(page.getByTestId('quote-receive'))).toBe(RECEIVE);
    expect(await text(page.getByTestId('quote-fee'))).toBe(FEE);
    expect(await text(page.getByTestId('quote-rate'))).toBe(RATE);
    await page.getByRole('button', { name: t(lang, 'swap.confirm') }).click();
    await page.getByTestId('swap-success').waitFor();

    await page.goto('/');
    await expect.poll(() => text(page.getByTestId('balance-ETH-total'))).toBe('0.033199');
    expect(await text(page.getByTestId('balance-USDT-total'))).toBe('900');
    // ETH priced at the ETH → USDT rate (3000 less 30 bps = 2991), cut to cents: 99.298209.
    expect(await text(page.getByTestId('balance-ETH-fiat'))).toBe('≈ 99.29 USDT');
    // The total reads by the same rule as the balances next to it (no padded "999.30").
    expect(await text(page.getByTestId('home-total'))).toBe('≈ 999.29');

    // "All" on the swap page sells the exact balance; the available line shows the rounded one.
    await page.goto('/swap');
    await page.getByTestId('swap-from').click();
    await page.getByTestId('currency-option-ETH').click();
    await expect
      .poll(() => text(page.getByTestId('swap-available')))
      .toBe(t(lang, 'wallet.available', { amount: '0.033199', code: 'ETH' }));
    await page.close();
  });

  it('hides every balance on home behind one toggle, and remembers it', async () => {
    const page = await openPage(context);
    await page.goto('/');
    await page.getByTestId('balance-USDT-total').waitFor();
    const hide = page.getByRole('button', { name: t(lang, 'assets.hideBalances') });
    await hide.click();
    for (const id of ['home-total', 'balance-USDT-total', 'balance-ETH-total', 'balance-ETH-fiat']) {
      expect(await text(page.getByTestId(id))).toContain('****');
      expect(await text(page.getByTestId(id))).not.toMatch(/\d/);
    }
    await page.reload();
    await page.getByRole('button', { name: t(lang, 'assets.showBalances') }).waitFor();
    expect(await text(page.getByTestId('balance-USDT-total'))).toBe('****');
    await page.getByRole('button', { name: t(lang, 'assets.showBalances') }).click();
    expect(await text(page.getByTestId('balance-USDT-total'))).toBe('900');
    await page.close();
  });

  it('an error names the available amount exactly as the line above it', async () => {
    // Half a cent more than USDT shows: the exact balance stays one tap away ("All").
    await fund(user.email, '1000.005', 'USDT');
    const page = await openPage(context);
    await page.goto('/transfer');
    const row = page.getByTestId('transfer-available');
    await expect.poll(() => text(row)).toMatch(/\d USDT/);
    const shown = /([\d,.]+) USDT/.exec(await text(row))![1]!;
    expect(shown).not.toContain('.005');
    await typeAmount(page, '5000');
    await page.getByTestId('transfer-next').click();
    await page.getByText(t(lang, 'wallet.amountErrors.balance', { available: shown, code: 'USDT' })).waitFor();
    await page.close();
  });

  it('a transfer’s confirm sheet, success and record read at the display precision, the exact amount one tap away', async () => {
    const friend = await createUser(lang, lang === 'zh-CN' ? '收款人' : 'Payee');
    const page = await openPage(context);
    await page.goto('/transfer');
    await page.fill('input[name=recipient-email]', friend.email);
    await page.getByTestId('recipient-check').click();
    await page.getByTestId('recipient-preview').waitFor();
    await typeAmount(page, '1.005');
    await page.getByTestId('transfer-next').click();
    // What is sent rounds up at USDT's 2 decimals; the typed value is a tap away, and is what is sent.
    const confirmAmount = page.getByTestId('transfer-confirm').getByTestId('confirm-amount');
    expect(await text(confirmAmount)).toBe('1.01 USDT');
    await confirmAmount.click();
    await expect.poll(() => text(confirmAmount)).toBe('1.005 USDT');
    const request = page.waitForRequest((r) => r.url().endsWith('/api/transfer/transferByEmail'));
    await page.getByTestId('transfer-submit').click();
    expect((await request).postDataJSON()).toMatchObject({ amount: '1.005' });
    await page.getByTestId('transfer-success').waitFor();
    await page.getByText(t(lang, 'transfer.sentTo', { amount: '1.01', code: 'USDT', name: friend.nickname })).waitFor();
    const reference = await text(page.getByTestId('transfer-result-id'));
    await page.getByTestId('transfer-view-bill').click();
    await page.getByTestId('bill-detail-transfer').waitFor();
    expect(await text(page.getByTestId('detail-id'))).toBe(reference);
    expect(await text(page.getByTestId('detail-amount'))).toBe('-1.01 USDT');
    await page.getByTestId('detail-amount').click();
    await expect.poll(() => text(page.getByTestId('detail-amount'))).toBe('-1.005 USDT');
    await page.close();
  });
});
