import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, newPhone, type TestUser, t, text } from './app';
import { ErrorCode, errorMessages } from '@coffer/contract/errors';
import { E2E_OPERATOR_EMAIL } from './harness';
import { apiTransfer, clearAmount, currencyId, fund, must, noPopUp, openPage, typeAmount } from './wallet-support';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The seconds shown by the quote countdown, or null when it shows something else. */
async function countdownSeconds(page: Page, lang: Lang): Promise<number | null> {
  const shown = await text(page.getByTestId('quote-countdown'));
  const pattern = t(lang, 'swap.quoteValid', { seconds: '__' })
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace('__', '(\\d+)');
  const match = new RegExp(`^${pattern}$`).exec(shown);
  return match ? Number(match[1]) : null;
}

async function pickTarget(page: Page, code: string) {
  await page.getByTestId('swap-to').click();
  await page.getByTestId(`currency-option-${code}`).click();
  await expect.poll(() => text(page.getByTestId('swap-to'))).toBe(code);
}

describe.each(LANGS)('wallet: swap (%s)', (lang) => {
  let browser: Browser;
  let user: TestUser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await connectBrowser();
    user = await createUser(lang, lang === 'zh-CN' ? '兑换者' : 'Swapper');
    await fund(user.email, '1000');
    context = await newPhone(browser, lang, { token: user.token });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('swaps USDT to ETH through a quote with a visible countdown', async () => {
    const page = await openPage(context);
    await page.goto('/swap');
    await pickTarget(page, 'ETH');
    // Decision 019: rates read the larger unit first ("1 ETH ≈ 3,009.03 USDT").
    expect(await text(page.getByTestId('swap-rate'))).toMatch(/^1 ETH ≈ [\d,]+\.\d{2} USDT$/);

    // Below the pair's minimum: refused before anything is sent.
    await typeAmount(page, '0.5');
    await page.getByTestId('swap-quote').click();
    expect(await text(page.getByTestId('amount-error'))).toBe(t(lang, 'wallet.amountErrors.belowMin', { min: '1', code: 'USDT' }));
    await clearAmount(page, 3);

    await typeAmount(page, '100');
    // ETH at its display precision, and the quote says the same string (decision 053).
    await expect.poll(() => text(page.getByTestId('swap-estimate'))).toBe('≈ 0.033199 ETH');
    await page.getByTestId('swap-quote').click();
    await page.getByTestId('swap-quote-panel').waitFor();
    const first = await countdownSeconds(page, lang);
    expect(first).not.toBeNull();
    expect(first!).toBeGreaterThan(0);
    expect(first!).toBeLessThanOrEqual(15);
    await expect.poll(() => countdownSeconds(page, lang), { timeout: 4000 }).toBeLessThan(first!);
    expect(await text(page.getByTestId('quote-receive'))).toBe('0.033199 ETH');

    const request = page.waitForRequest((r) => r.url().endsWith('/api/swap/apply'));
    await page.getByTestId('swap-confirm').click();
    const sent = await request;
    expect(sent.headers()['idempotency-key']).toMatch(UUID_RE);
    expect(sent.postDataJSON()).toMatchObject({
      fromCurrencyId: await currencyId('USDT'),
      toCurrencyId: await currencyId('ETH'),
      amount: '100',
      quoteId: expect.any(Number),
    });
    await page.getByTestId('swap-success').waitFor();
    await page.getByTestId('swap-view-bill').click();
    await page.waitForURL(/\/bill\/detail\?type=swap&id=\d+$/);
    await expect.poll(() => text(page.getByTestId('detail-paid'))).toBe('-100 USDT');
    // The record is the quote: the same strings, no 18-digit tail.
    expect(await text(page.getByTestId('detail-amount'))).toBe('+0.033199 ETH');
    expect(await text(page.getByTestId('detail-fee'))).toBe('0.000034 ETH');
    await page.close();
  });

  // Decision 021: the server's refusal of the amount is said under the amount, not popped up.
  it('puts a refused amount next to the field and closes the quote', async () => {
    const page = await openPage(context);
    await page.goto('/swap');
    await pickTarget(page, 'ETH');
    await expect.poll(() => text(page.getByTestId('swap-available'))).not.toContain('--');
    await typeAmount(page, '100');
    await page.getByTestId('swap-quote').click();
    await page.getByTestId('swap-quote-panel').waitFor();
    // The balance goes elsewhere while the quote is open: only the server can refuse.
    const balances = await must<{ code: string; available: string }[]>('/currency/balances', { token: user.token });
    await apiTransfer(user, E2E_OPERATOR_EMAIL, balances.find((b) => b.code === 'USDT')!.available);
    await page.getByTestId('swap-confirm').click();
    await page.getByTestId('swap-quote-panel').waitFor({ state: 'detached' });
    const field = page.getByRole('button', { name: new RegExp(`^${t(lang, 'swap.pay')}: `) });
    const refusal = page.locator('section', { has: field }).getByText(errorMessages[lang][ErrorCode.INSUFFICIENT_BALANCE], { exact: true });
    await refusal.waitFor();
    expect(await field.getAttribute('aria-describedby')).toBe(await refusal.getAttribute('id'));
    await noPopUp(page);
    await page.close();
  });
});

// The signed-out path and the expiry path run in one language each; the main flow runs in both.

describe('wallet: swap signed out (zh-CN)', () => {
  const lang: Lang = 'zh-CN';
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows public rates signed out and asks for sign-in only to swap', async () => {
    const guest = await newPhone(browser, lang);
    const page = await openPage(guest);
    try {
      await page.goto('/swap');
      await page.getByTestId('swap-rate').waitFor();
      expect(await text(page.getByTestId('swap-from'))).toBe('USDT');
      expect(await page.getByTestId('swap-available').count()).toBe(0);
      const button = page.getByTestId('swap-quote');
      expect(await text(button)).toBe(t(lang, 'swap.signInToSwap'));
      await typeAmount(page, '10');
      await button.click();
      // The return path carries the typed form (decision 021).
      await page.waitForURL((url) => url.pathname === '/login' && url.search.includes('amount%3D10'));
    } finally {
      await guest.close();
    }
  });
});

describe('wallet: swap quote expiry (en-US)', () => {
  const lang: Lang = 'en-US';
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await connectBrowser();
    const user = await createUser(lang, 'Late');
    await fund(user.email, '100');
    context = await newPhone(browser, lang, { token: user.token });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('offers a new quote once the countdown runs out', async () => {
    const page = await openPage(context);
    await page.clock.install();
    await page.goto('/swap');
    await pickTarget(page, 'ETH');
    await typeAmount(page, '50');
    await page.getByTestId('swap-quote').click();
    await page.getByTestId('swap-quote-panel').waitFor();
    await page.clock.fastForward(16_000);
    await expect.poll(() => text(page.getByTestId('quote-countdown'))).toBe(t(lang, 'swap.quoteExpired'));
    expect(await page.getByTestId('swap-confirm').count()).toBe(0);

    const requote = page.waitForResponse((r) => r.url().endsWith('/api/swap/quote'));
    await page.getByTestId('swap-requote').click();
    await requote;
    await expect.poll(() => countdownSeconds(page, lang)).toBeGreaterThan(0);
    await page.getByTestId('swap-confirm').click();
    await page.getByTestId('swap-success').waitFor();
    await page.close();
  });
});
