import { errorMessages } from '@coffer/contract/errors';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, KEYS, LANGS, type Lang, navTitle, newPhone, type TestUser, t, waitForPath, waitForToast } from './app';
import { createLiveActivity } from './content-support';
import { apiTransfer, fund, noPopUp, openPage } from './wallet-support';

/*
 * What phone users saw wrong, one journey per screen: the scroll-cache demo, toasts, the
 * sign-in page's way out, the register form's errors, touch targets, broken words, the bill
 * chips, two-factor's wording and code box, the ranking for the unranked, the Developer entry,
 * Profile's UID and icons, and the order of balances.
 */

/** What the camera's QR code pays to, in the scan journey without a BarcodeDetector. */
const CAMERA_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

/** The smallest touch target the app allows (Apple's and Android's guidance). */
const MIN_TOUCH_PX = 44;

async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not on screen`);
  return found;
}

/** WCAG contrast ratio of two CSS colours, the first composited over the second when translucent. */
function contrastIn(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const parse = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number) as [number, number, number, number?];
      const over = (top: string, under: string) => {
        const [r, g, b, a = 1] = parse(top);
        const [r2, g2, b2] = parse(under);
        return [r * a + r2 * (1 - a), g * a + g2 * (1 - a), b * a + b2 * (1 - a)];
      };
      const luminance = ([r, g, b]: number[]) => {
        const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
      };
      const ratio = (x: number[], y: number[]) => {
        const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
        return (hi + 0.05) / (lo + 0.05);
      };
      const page = getComputedStyle(document.body).backgroundColor;
      const style = getComputedStyle(element);
      const background = over(style.backgroundColor, page);
      return { text: ratio(over(style.color, background.join(',')), background), edge: ratio(background, over(page, page)) };
    });
}

describe.each(LANGS)('phone fixes (%s)', (lang: Lang) => {
  let browser: Browser;
  let user: TestUser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await connectBrowser();
    user = await createUser(lang);
    await fund(user.email, '5', 'USDT');
    await fund(user.email, '1', 'BTC');
    context = await newPhone(browser, lang, { token: user.token });
    page = await openPage(context);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('keeps the scroll-cache position, shows Developer only when enabled, lets a guest leave sign-in', async () => {
    const developer = await newPhone(browser, lang, { token: user.token, localStorage: { developerMenu: '1' } });
    try {
      const dev = await openPage(developer);
      await dev.goto('/settings');
      await dev.getByText('/scroll-cache', { exact: true }).click();
      await waitForPath(dev, '/scroll-cache');
      await dev.getByText(t(lang, 'demo.row', { n: 100 })).waitFor();
      await dev.evaluate(() => window.scrollTo(0, 900));
      await expect.poll(() => dev.evaluate(() => window.scrollY)).toBe(900);
      await dev.locator('.adm-nav-bar-back').click();
      await waitForPath(dev, '/settings');
      await dev.getByText('/scroll-cache', { exact: true }).click();
      await waitForPath(dev, '/scroll-cache');
      await dev.getByText(t(lang, 'demo.row', { n: 100 })).waitFor();
      await expect.poll(() => dev.evaluate(() => window.scrollY), { message: 'scroll position on re-entry' }).toBe(900);
    } finally {
      await developer.close();
    }

    await page.goto('/settings');
    await page.getByTestId('settings-2fa').waitFor();
    expect(await page.getByText(t(lang, 'settings.developer')).count(), 'Developer entry for a customer').toBe(0);

    const guestContext = await newPhone(browser, lang);
    try {
      const guest = await openPage(guestContext);
      await guest.goto('/');
      await guest.locator('.adm-tab-bar-item').nth(3).click();
      await waitForPath(guest, '/login?redirect=%2Fprofile');
      const close = guest.getByTestId('login-close');
      expect((await close.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(MIN_TOUCH_PX);
      expect(await close.getAttribute('aria-label')).toBe(t(lang, 'auth.backHome'));
      await close.click();
      await waitForPath(guest, '/');
    } finally {
      await guestContext.close();
    }
  });

  it('shows toasts small, at the top, readable on the dark theme, and clears them on navigation', async () => {
    const dark = await newPhone(browser, lang, { token: 'Bearer no-such-session', localStorage: { [KEYS.theme]: 'dark' } });
    try {
      const stale = await openPage(dark);
      await stale.goto('/settings');
      await waitForPath(stale, '/login?redirect=%2Fsettings');
      await waitForToast(stale, errorMessages[lang][2001]);
      const toast = await box(stale, '.adm-toast-main');
      expect(toast.y, 'toast top').toBeLessThan(120);
      expect(toast.height, 'toast height').toBeLessThanOrEqual(64);
      const contrast = await contrastIn(stale, '.adm-toast-main');
      expect(contrast.text, 'text on the toast').toBeGreaterThanOrEqual(4.5);
      expect(contrast.edge, 'toast against the dark page').toBeGreaterThanOrEqual(3);
      await stale.getByTestId('to-register').click();
      await waitForPath(stale, '/register');
      await expect.poll(() => stale.locator('.adm-toast-main').count(), { timeout: 1000 }).toBe(0);
    } finally {
      await dark.close();
    }
  });

  it('register shows its own inline errors, never the browser bubble', async () => {
    const guestContext = await newPhone(browser, lang);
    try {
      const guest = await openPage(guestContext);
      await guest.goto('/register');
      expect(await guest.locator('form').evaluate((form: HTMLFormElement) => form.noValidate)).toBe(true);
      await guest.locator('input[name=email]').fill('not-an-email');
      await guest.getByTestId('register-submit').click();
      await guest.getByText(t(lang, 'validation.email'), { exact: true }).waitFor();
    } finally {
      await guestContext.close();
    }
  });

  it('profile and home: UID copy, the same icons, big enough targets, balances in order', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    const rows = page.locator('[data-testid^="balance-"][data-testid$="-total"]');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(5);
    const order = (await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-testid') ?? ''))).map((id) =>
      id.replace(/^balance-|-total$/g, ''),
    );
    // Non-zero by value first (1 BTC is worth more than 5 USDT), the zeros after in currency order.
    expect(order.slice(0, 5)).toEqual(['BTC', 'USDT', 'USDC', 'ETH', 'LTC']);
    const homeIcons = await Promise.all(
      ['charge', 'withdraw', 'transfer'].map((id) => page.getByTestId(`home-action-${id}`).locator('svg').innerHTML()),
    );

    await page.goto('/profile');
    const profileIcons = await Promise.all(
      ['charge', 'withdraw', 'transfer'].map((id) => page.getByTestId(`profile-${id}`).locator('svg').innerHTML()),
    );
    expect(profileIcons).toEqual(homeIcons);
    expect((await box(page, '[data-testid=profile-nickname]')).height).toBeGreaterThanOrEqual(MIN_TOUCH_PX);
    const uid = (await page.getByTestId('profile-uid').textContent())?.match(/\d+/)?.[0];
    await page.getByTestId('profile-uid-copy').click();
    await waitForToast(page, t(lang, 'profile.uidCopied'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(uid);
  });

  it('transfer and bills: a big Check button, recent recipients, words kept whole, bill types in one scrolling row', async () => {
    const friend = await createUser(lang, 'Friend');
    await apiTransfer(user, friend.email, '1');
    await page.goto('/transfer');
    expect((await box(page, '[data-testid=recipient-check]')).height).toBeGreaterThanOrEqual(MIN_TOUCH_PX);
    expect((await box(page, '[data-testid=recipient-check]')).width).toBeGreaterThanOrEqual(MIN_TOUCH_PX);
    await page.getByTestId('recent-recipients').getByText('Friend').click();
    await expect.poll(() => page.getByTestId('recipient-nickname').textContent()).toBe('Friend');

    await page.goto('/bill?type=transfer');
    const tabs = page.locator('.bill-tabs [role=tab]');
    await tabs.first().waitFor();
    const tops = await tabs.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(new Set(tops).size, 'bill type chips on one row').toBe(1);
    expect(await page.locator('.bill-tabs').evaluate((el) => getComputedStyle(el).overflowX)).toBe('auto');

    // Values in detail rows and addresses break between words, or anywhere only when a word is too long.
    const breaks = await page.evaluate(() =>
      [...document.styleSheets].flatMap((sheet) =>
        [...sheet.cssRules].flatMap((rule) =>
          rule instanceof CSSStyleRule && rule.style.wordBreak === 'break-all' && !rule.selectorText.includes('adm-')
            ? [rule.selectorText]
            : [],
        ),
      ),
    );
    expect(breaks, 'rules that split words mid-word').toEqual([]);
  });

  it('two-factor: one name for the feature, a boxed code field, wrong codes shown under it', async () => {
    await page.goto('/settings');
    await expect.poll(() => page.getByTestId('settings-2fa').textContent()).toBe(t(lang, 'settings.twoFactor'));
    await page.getByTestId('settings-2fa').click();
    await waitForPath(page, '/settings/2fa');
    // The address moves before the page is drawn: the title is waited for, not read at once.
    await expect.poll(() => navTitle(page)).toBe(t(lang, 'settings.twoFactor'));
    await page.getByTestId('2fa-setup').click();
    const code = page.getByTestId('2fa-code');
    await code.waitFor();
    const border = await page
      .locator('.code-box')
      .first()
      .evaluate((el) => Number.parseFloat(getComputedStyle(el).borderTopWidth));
    expect(border, 'code field drawn as a box').toBeGreaterThanOrEqual(1);
    await code.locator('input').fill('000000');
    await page.getByTestId('2fa-password').locator('input').fill(user.password);
    await page.getByTestId('2fa-enable').click();
    await page.getByTestId('2fa-code-error').getByText(errorMessages[lang][2007]).waitFor();
    await noPopUp(page);
  });

  it('ranking: an unranked user is told how to take part, with a way to', async () => {
    const activity = await createLiveActivity({ titleZh: '兑换排行', titleEn: 'Swap race' }, [{ rankFrom: 1, rankTo: 3, amount: '10' }]);
    await page.goto(`/banner/ranking?id=${activity.id}`);
    await page.getByTestId('ranking-mine').waitFor();
    expect(await page.getByTestId('ranking-mine-gap').count(), 'no "0 more to reach" for the unranked').toBe(0);
    await page.getByTestId('ranking-join').click();
    await waitForPath(page, '/swap');
  });

  it('what users expect: a first-deposit prompt, sharing the deposit QR, scanning the withdrawal address (jsQR, BarcodeDetector)', async () => {
    await page.goto('/');
    await page.getByTestId('balance-USDT-total').waitFor();
    expect(await page.getByTestId('home-first-deposit').count(), 'no prompt once funded').toBe(0);

    const newcomer = await createUser(lang);
    const phone = await newPhone(browser, lang, { token: newcomer.token });
    try {
      await phone.grantPermissions(['clipboard-read', 'clipboard-write']);
      // No share sheet here: the address is copied instead.
      await phone.addInitScript(() => {
        Reflect.deleteProperty(Navigator.prototype, 'share');
        Reflect.deleteProperty(window, 'BarcodeDetector');
      });
      // The camera shows a real QR code of a payment link; with no BarcodeDetector, the app's
      // own decoder (jsQR) reads it from the frames.
      await phone.addInitScript(
        (png) => {
          navigator.mediaDevices.getUserMedia = async () => {
            const image = new Image();
            image.src = png;
            await image.decode();
            const canvas = document.createElement('canvas');
            canvas.width = 480;
            canvas.height = 480;
            const draw = () => {
              const context = canvas.getContext('2d');
              context?.fillRect(0, 0, 0, 0);
              context?.drawImage(image, 0, 0, 480, 480);
            };
            draw();
            setInterval(draw, 100);
            return canvas.captureStream(10);
          };
        },
        await QRCode.toDataURL(`ethereum:${CAMERA_ADDRESS}?value=0`, { margin: 4, width: 480 }),
      );
      const fresh = await openPage(phone);
      await fresh.goto('/');
      await fresh.getByTestId('home-first-deposit').getByRole('button').click();
      await waitForPath(fresh, '/charge');
      const address = (await fresh.getByTestId('deposit-address').textContent())?.trim() ?? '';
      await fresh.getByTestId('deposit-share').click();
      await waitForToast(fresh, t(lang, 'charge.shareCopied'));
      expect(await fresh.evaluate(() => navigator.clipboard.readText())).toBe(address);
      await fresh.goto('/withdraw');
      await fresh.getByTestId('withdraw-paste').waitFor();
      await fresh.getByTestId('withdraw-scan').click();
      await expect.poll(() => fresh.inputValue('input[name=withdraw-address]'), { timeout: 15_000 }).toBe(CAMERA_ADDRESS);
    } finally {
      await phone.close();
    }

    // A phone with a share sheet and a barcode reader (both stood in for: headless Chromium has neither).
    const scanned = '0x52908400098527886E0F7030069857D2E4169EE7';
    const equipped = await newPhone(browser, lang, { token: user.token });
    try {
      await equipped.addInitScript((raw) => {
        const w = window as unknown as Record<string, unknown>;
        Object.defineProperty(Navigator.prototype, 'share', {
          configurable: true,
          value: async (data: { text?: string; files?: File[] }) => {
            w.shared = { text: data.text, files: (data.files ?? []).map((f) => f.type) };
          },
        });
        Object.defineProperty(Navigator.prototype, 'canShare', { configurable: true, value: () => true });
        w.BarcodeDetector = class {
          async detect() {
            return [{ rawValue: `ethereum:${raw}@1` }];
          }
        };
        navigator.mediaDevices.getUserMedia = async () => {
          const canvas = document.createElement('canvas');
          canvas.getContext('2d')?.fillRect(0, 0, 1, 1);
          return canvas.captureStream(10);
        };
      }, scanned);
      const phonePage = await openPage(equipped);
      await phonePage.goto('/charge');
      const address = (await phonePage.getByTestId('deposit-address').textContent())?.trim() ?? '';
      await phonePage.getByTestId('deposit-share').click();
      await expect
        .poll(() => phonePage.evaluate(() => (window as unknown as { shared?: unknown }).shared))
        .toEqual({ text: expect.stringContaining(address), files: ['image/png'] });
      await phonePage.goto('/withdraw');
      await phonePage.getByTestId('withdraw-scan').click();
      await expect.poll(() => phonePage.inputValue('input[name=withdraw-address]')).toBe(scanned);
    } finally {
      await equipped.close();
    }
  });
});
