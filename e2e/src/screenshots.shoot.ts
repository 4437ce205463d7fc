import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Network } from '@coffer/contract/chain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, KEYS, LANGS, type Lang, mailDir, newPhone, type TestUser, text } from './app';
import { REPO_ROOT } from './harness';
import { waitForCode } from './mailbox';
import { must, openPage, typeAmount } from './wallet-support';

/**
 * Captures the main screens into docs/screenshots, in both languages and in dark mode:
 * `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts` (or `npm run screenshots
 * -w @coffer/e2e`). SCREENSHOTS_DIR writes elsewhere.
 */
const outDir = process.env.SCREENSHOTS_DIR ?? join(REPO_ROOT, 'docs/screenshots');
mkdirSync(outDir, { recursive: true });

interface CaptureOptions {
  /** The whole page, not only the viewport (the long money pages). */
  fullPage?: boolean;
  /** Wait for toasts to leave first (pages that hide them do not). */
  waitForToasts?: boolean;
}

async function capture(page: Page, file: string, { fullPage = false, waitForToasts = true }: CaptureOptions = {}) {
  // Let toasts, the progress bar and loading skeletons finish, and fonts and images load.
  if (waitForToasts) await page.locator('.adm-toast-main').waitFor({ state: 'detached' });
  await page.locator('#nprogress').waitFor({ state: 'detached' });
  await page.locator('.adm-skeleton').first().waitFor({ state: 'detached' });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
  // From the top: the sticky nav bar then sits where it belongs in a full-page picture.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  const target = join(outDir, `${file}.png`);
  await page.screenshot({ path: target, fullPage });
  expect(statSync(target).size, file).toBeGreaterThan(10_000);
}

/**
 * Signed in, the app keeps its live event stream (GET /api/events) open, so the network
 * never goes idle: pages are ready when their content is (see capture).
 */
async function shoot(page: Page, path: string, ready: string, file: string) {
  await page.goto(path);
  await page.locator(ready).first().waitFor();
  await capture(page, file);
}

async function pickEth(page: Page, button: string, eth: Network) {
  await page.getByTestId(button).click();
  await page.getByTestId('currency-option-ETH').click();
  await expect.poll(() => text(page.getByTestId(button))).toBe('ETH');
  await page.getByTestId(`network-option-${eth.id}`).click();
}

const OUTSIDE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

/**
 * The money screens on the embedded chain: /charge with a faucet deposit on its way,
 * /withdraw filled in and its confirmation sheet, and the withdrawal completed.
 */
async function shootChain(browser: Browser, lang: Lang, prefix: string, theme?: 'dark') {
  const user = await createUser(lang, lang === 'zh-CN' ? '林小满' : 'Avery Chen');
  const eth = (await must<Network[]>('/currency/onchain')).find((n) => n.code === 'ETH')!;
  const context = await newPhone(browser, lang, {
    token: user.token,
    deviceScaleFactor: 2,
    ...(theme ? { localStorage: { [KEYS.theme]: theme } } : {}),
  });
  const page = await openPage(context);
  try {
    await page.goto('/charge');
    await pickEth(page, 'charge-currency', eth);
    await page.locator('[data-testid=deposit-qr] svg').waitFor();
    // A deposit stays pending for about two blocks (2 s here), about as long as a toast: the
    // toasts are hidden so the picture can be taken while the deposit is on its way. (Through
    // the CSSOM: the app's Content-Security-Policy refuses an injected <style>.)
    await page.evaluate(() => {
      const hide = () => {
        for (const mask of document.querySelectorAll<HTMLElement>('.adm-toast-mask')) mask.style.display = 'none';
      };
      new MutationObserver(hide).observe(document.body, { childList: true, subtree: true });
    });
    const row = page.getByTestId('pending-deposit');
    for (let attempt = 1; ; attempt += 1) {
      await page.getByTestId('faucet-button').click();
      await row.waitFor({ timeout: 15_000 });
      await capture(page, `${prefix}-charge`, { fullPage: true, waitForToasts: false });
      // Still pending after the picture: it shows the deposit on its way.
      if ((await row.count()) > 0 || attempt === 3) break;
    }
    await page.getByTestId('pending-deposits-empty').waitFor({ timeout: 20_000 });

    await page.goto('/withdraw');
    await pickEth(page, 'withdraw-currency', eth);
    await expect.poll(() => text(page.getByTestId('withdraw-available')), { timeout: 20_000 }).not.toMatch(/^0 /);
    await page.fill('input[name=withdraw-address]', OUTSIDE);
    await typeAmount(page, '0.25', 'withdraw-amount');
    const since = Date.now();
    await page.getByTestId('withdraw-send-code').click();
    await page.fill('input[name=withdraw-code]', await waitForCode(mailDir(), user.email, since));
    await page.locator('input[name=withdraw-code]').blur();
    await capture(page, `${prefix}-withdraw`, { fullPage: true });
    await page.getByTestId('withdraw-next').click();
    await page.getByTestId('withdraw-confirm').waitFor();
    await capture(page, `${prefix}-withdraw-confirm`);

    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-view-detail').click();
    const status = page.getByTestId('detail-status');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 20_000 }).toBe('completed');
    await page.getByTestId('detail-tx-hash').waitFor();
    await capture(page, `${prefix}-withdraw-detail`, { fullPage: true });
  } finally {
    await context.close();
  }
}

describe('screenshots', () => {
  let browser: Browser;
  const users = new Map<Lang, TestUser>();

  beforeAll(async () => {
    browser = await connectBrowser();
    for (const lang of LANGS) users.set(lang, await createUser(lang, lang === 'zh-CN' ? '林小满' : 'Avery Chen'));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it.each(LANGS)('main screens in %s', async (lang) => {
    const guest = await newPhone(browser, lang, { deviceScaleFactor: 2 });
    const guestPage = await guest.newPage();
    await shoot(guestPage, '/', '[data-testid="home"]', `${lang}-home-guest`);
    await shoot(guestPage, '/login', '[data-testid="login-submit"]', `${lang}-login`);
    await shoot(guestPage, '/register', '[data-testid="register-submit"]', `${lang}-register`);
    await guest.close();

    const member = await newPhone(browser, lang, { token: users.get(lang)!.token, deviceScaleFactor: 2 });
    const page = await member.newPage();
    await shoot(page, '/', '[data-testid="home"]', `${lang}-home`);
    await shoot(page, '/profile', '[data-testid="profile-uid"]', `${lang}-profile`);
    await shoot(page, '/settings', '[data-testid="logout"]', `${lang}-settings`);
    await member.close();
  });

  it('dark theme', async () => {
    const lang: Lang = 'zh-CN';
    const context = await newPhone(browser, lang, {
      token: users.get(lang)!.token,
      deviceScaleFactor: 2,
      localStorage: { [KEYS.theme]: 'dark' },
    });
    const page = await context.newPage();
    await shoot(page, '/', '[data-testid="home"]', `dark-${lang}-home`);
    await shoot(page, '/profile', '[data-testid="profile-uid"]', `dark-${lang}-profile`);
    await shoot(page, '/settings', '[data-testid="logout"]', `dark-${lang}-settings`);
    await context.close();
    const guest = await newPhone(browser, 'en-US', { deviceScaleFactor: 2, localStorage: { [KEYS.theme]: 'dark' } });
    await shoot(await guest.newPage(), '/login', '[data-testid="login-submit"]', 'dark-en-US-login');
    await guest.close();
  });

  it.each(LANGS)('money screens in %s', async (lang) => {
    await shootChain(browser, lang, lang);
  });

  it('money screens in the dark theme', async () => {
    await shootChain(browser, 'zh-CN', 'dark-zh-CN', 'dark');
  });
});
