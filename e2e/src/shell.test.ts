import { errorMessages } from '@coffer/contract/errors';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectBrowser,
  createUser,
  KEYS,
  LANGS,
  type Lang,
  navTitle,
  newPhone,
  pageTitle,
  rendered,
  storedToken,
  type TestUser,
  t,
  text,
  waitForPath,
  waitForToast,
  asksCurrentUser,
  isEarlyBatch,
} from './app';

/** TanStack Query's first retry delay (its default retryDelay: 1000 * 2 ** 0 ms). */
const FIRST_RETRY_DELAY_MS = 1000;

interface RouteCase {
  path: string;
  title: string;
  navBar: boolean;
  tabBar: boolean;
  /** Bill type opened by the nav bar's right-hand icon. */
  records?: string;
  padded?: boolean;
}

/** Spec §2, route by route, for a signed-in user. */
const ROUTES: RouteCase[] = [
  { path: '/', title: 'routes.home', navBar: false, tabBar: true },
  { path: '/swap', title: 'routes.swap', navBar: false, tabBar: true },
  { path: '/bill/all', title: 'routes.billAll', navBar: false, tabBar: true },
  { path: '/profile', title: 'routes.profile', navBar: false, tabBar: true, padded: false },
  { path: '/bill', title: 'routes.bill', navBar: true, tabBar: false },
  { path: '/bill?type=charge', title: 'routes.billCharge', navBar: true, tabBar: false },
  { path: '/bill?type=withdraw', title: 'routes.billWithdraw', navBar: true, tabBar: false },
  { path: '/bill?type=swap', title: 'routes.billSwap', navBar: true, tabBar: false },
  { path: '/bill?type=transfer', title: 'routes.billTransfer', navBar: true, tabBar: false },
  { path: '/bill/detail', title: 'routes.billDetail', navBar: true, tabBar: false },
  { path: '/charge', title: 'routes.charge', navBar: true, tabBar: false, records: 'charge' },
  { path: '/withdraw', title: 'routes.withdraw', navBar: true, tabBar: false, records: 'withdraw' },
  { path: '/transfer', title: 'routes.transfer', navBar: true, tabBar: false, records: 'transfer' },
  { path: '/login', title: 'routes.login', navBar: false, tabBar: false },
  { path: '/register', title: 'routes.register', navBar: true, tabBar: false },
  { path: '/forgot-password', title: 'routes.forgotPassword', navBar: true, tabBar: false },
  { path: '/settings', title: 'routes.settings', navBar: true, tabBar: false },
  { path: '/helpCenter', title: 'routes.helpCenter', navBar: true, tabBar: false },
  { path: '/noticeCenter', title: 'routes.helpCenter', navBar: true, tabBar: false },
  { path: '/noticeCenter/detail', title: 'routes.helpCenter', navBar: true, tabBar: false },
  { path: '/banner/detail', title: 'routes.bannerDetail', navBar: true, tabBar: false },
  { path: '/banner/ranking', title: 'routes.bannerRanking', navBar: true, tabBar: false },
  { path: '/no-such-page', title: 'routes.notFound', navBar: true, tabBar: false },
  // The spec's demo pages are served by every build, the production one included (docs/product.md §10.4).
  { path: '/charts', title: 'routes.charts', navBar: true, tabBar: false },
  { path: '/counter', title: 'routes.counter', navBar: true, tabBar: false },
  { path: '/counter/index1', title: 'routes.counterIndex1', navBar: true, tabBar: false },
  { path: '/keepalive', title: 'routes.keepalive', navBar: true, tabBar: false },
  { path: '/mock', title: 'routes.mock', navBar: true, tabBar: false },
  { path: '/scroll-cache', title: 'routes.scrollCache', navBar: true, tabBar: false },
  { path: '/unocss', title: 'routes.unocss', navBar: true, tabBar: false },
];

const TAB_LABELS = ['tabs.home', 'tabs.swap', 'tabs.otc', 'tabs.profile'];

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.locator('main.app-main').waitFor();
}

describe.each(LANGS)('app shell (%s)', (lang: Lang) => {
  let browser: Browser;
  let user: TestUser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await connectBrowser();
    user = await createUser(lang);
    context = await newPhone(browser, lang, { token: user.token });
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('applies the title, nav bar and tab bar rules on every route', async () => {
    for (const route of ROUTES) {
      await open(page, route.path);
      const where = `${lang} ${route.path}`;
      expect(await page.title(), where).toBe(pageTitle(lang, route.title));
      expect(await page.locator('.adm-nav-bar').count(), `${where} nav bar`).toBe(route.navBar ? 1 : 0);
      if (route.navBar) {
        await expect.poll(() => navTitle(page), { message: where }).toBe(t(lang, route.title));
        expect(await page.locator('.adm-nav-bar-back').count(), `${where} back arrow`).toBe(1);
        expect(await page.locator('.app-nav-action').count(), `${where} records icon`).toBe(route.records ? 1 : 0);
      }
      const tabBar = page.locator('.adm-tab-bar');
      expect(await tabBar.count(), `${where} tab bar`).toBe(route.tabBar ? 1 : 0);
      if (route.tabBar) {
        const labels = await tabBar.locator('.adm-tab-bar-item-title').allTextContents();
        expect(labels, where).toEqual(TAB_LABELS.map((key) => t(lang, key)));
        const active = await text(tabBar.locator('.adm-tab-bar-item-active .adm-tab-bar-item-title'));
        const tabIndex = ['/', '/swap', '/bill/all', '/profile'].indexOf(route.path);
        expect(active, where).toBe(t(lang, TAB_LABELS[tabIndex]!));
      }
      const padded = await page.locator('main.app-main').evaluate((el) => el.classList.contains('app-main--padded'));
      expect(padded, `${where} padding`).toBe(route.padded ?? true);
    }
  });

  it('opens the matching bill list from the records icon', async () => {
    for (const type of ['charge', 'withdraw', 'transfer']) {
      await open(page, `/${type}`);
      await page.locator('.app-nav-action').click();
      await waitForPath(page, `/bill?type=${type}`);
      const key = `routes.bill${type[0]!.toUpperCase()}${type.slice(1)}`;
      await expect.poll(() => navTitle(page)).toBe(t(lang, key));
      expect(await page.title()).toBe(pageTitle(lang, key));
    }
  });

  it('goes back in history, or to / when the page was opened directly', async () => {
    await open(page, '/settings');
    await page.locator('.adm-nav-bar-back').click();
    await waitForPath(page, '/');
    // Replaced, not pushed: there is nothing to go back to from here.
    expect(await page.evaluate(() => (window.history.state as { idx?: number } | null)?.idx ?? 0)).toBe(0);

    await page.locator('.adm-tab-bar-item').nth(3).click();
    await waitForPath(page, '/profile');
    await page.getByTestId('profile-settings').click();
    await waitForPath(page, '/settings');
    await page.locator('.adm-nav-bar-back').click();
    await waitForPath(page, '/profile');
  });

  it('switches tabs from the tab bar', async () => {
    await open(page, '/');
    const paths = ['/swap', '/bill/all', '/profile', '/'];
    for (const [index, path] of [1, 2, 3, 0].entries()) {
      await page.locator('.adm-tab-bar-item').nth(path).click();
      await waitForPath(page, paths[index]!);
    }
  });

  it('sends the token, the language and the tunnel header with every request', async () => {
    const [request] = await Promise.all([page.waitForRequest(asksCurrentUser), open(page, '/settings')]);
    const headers = await request.allHeaders();
    expect(headers['x-token']).toBe(user.token);
    expect(headers['accept-language']).toBe(lang);
    expect(headers['ngrok-skip-browser-warning']).toBe('true');
    const user_info = await page.evaluate((key) => sessionStorage.getItem(key), KEYS.user);
    expect(JSON.parse(user_info ?? '{}')).toMatchObject({ email: user.email, nickname: user.nickname });
  });

  it('treats a session the server no longer knows as signed out (code 2001)', async () => {
    const stale = await newPhone(browser, lang, { token: 'Bearer no-such-session' });
    const stalePage = await stale.newPage();
    try {
      await stalePage.goto('/settings');
      await waitForPath(stalePage, '/login?redirect=%2Fsettings');
      await waitForToast(stalePage, errorMessages[lang][2001]);
      expect(await storedToken(stalePage)).toBeNull();
      expect(await stalePage.evaluate(() => sessionStorage.length)).toBe(0);
    } finally {
      await stale.close();
    }
  });

  it('reaches every demo page from the Developer entry in settings, once enabled', async () => {
    await page.evaluate(() => localStorage.setItem('developerMenu', '1'));
    for (const [path, key] of [
      ['/charts', 'routes.charts'],
      ['/unocss', 'routes.unocss'],
    ] as const) {
      await open(page, '/settings');
      await page.getByText(t(lang, 'settings.developer')).waitFor();
      await page.getByText(path, { exact: true }).click();
      await waitForPath(page, path);
      await expect.poll(() => navTitle(page)).toBe(t(lang, key));
    }
    await page.evaluate(() => localStorage.removeItem('developerMenu'));
  });

  it('paints the progress bar and spinner in the theme colour, not nprogress blue', async () => {
    await open(page, '/');
    // nprogress adds this markup while a navigation runs; the rules that colour it are what count.
    const colours = await page.evaluate(() => {
      const root = document.createElement('div');
      root.id = 'nprogress';
      root.innerHTML = '<div class="bar"><div class="peg"></div></div><div class="spinner"><div class="spinner-icon"></div></div>';
      document.body.append(root);
      const bar = getComputedStyle(root.querySelector('.bar') as Element).backgroundColor;
      const spinner = getComputedStyle(root.querySelector('.spinner-icon') as Element).borderTopColor;
      root.remove();
      return { bar, spinner };
    });
    expect(colours).toEqual({ bar: 'rgb(0, 171, 169)', spinner: 'rgb(0, 171, 169)' });
  });

  it('shows the progress bar while a navigation waits, with no made-up ARIA roles', async () => {
    await open(page, '/');
    // Hold the guard's user fetch so the bar stays up long enough to look at.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handled: Promise<void>[] = [];
    await page.route('**/api/getCurrentUser', (route) => {
      const done = held.then(() => route.continue());
      handled.push(done);
      return done;
    });
    try {
      await page.locator('.adm-tab-bar').getByText(t(lang, 'tabs.profile'), { exact: true }).click();
      const bar = page.locator('#nprogress .bar');
      await bar.waitFor();
      // nprogress's default template says role="bar" / role="spinner" (not ARIA roles: axe critical).
      expect(await page.locator('#nprogress [role]').count()).toBe(0);
      expect(await bar.getAttribute('aria-hidden')).toBe('true');
      // The bar is still driven (found by class now): it has been moved from its start.
      expect(await bar.evaluate((el) => (el as HTMLElement).style.transform)).toMatch(/translate/);
    } finally {
      release();
      await Promise.all(handled);
      await page.unroute('**/api/getCurrentUser');
    }
    await page.locator('#nprogress').waitFor({ state: 'detached' });
  });

  it('shows a 403 from the user fetch once, without retrying it', async () => {
    const refused = await newPhone(browser, lang, { token: user.token });
    const refusedPage = await refused.newPage();
    const forbidden = { code: 4003, message: 'forbidden-by-test', data: null };
    // Who asked, in the order the requests reached the route: the app, or the test's marker.
    const calls: string[] = [];
    await refusedPage.route('**/api/getCurrentUser', (route) => {
      calls.push(route.request().headers()['x-e2e-marker'] ?? 'app');
      return route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify(forbidden) });
    });
    // The first open's early batch (decision 069) carries the same refusal for that path: it is
    // the app's one request for it.
    let batches = 0;
    await refusedPage.route(isEarlyBatch, (route) => {
      batches++;
      return route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ code: 0, message: 'ok', data: { '/getCurrentUser': { status: 403, body: forbidden } } }),
      });
    });
    try {
      await refusedPage.clock.install();
      await refusedPage.goto('/settings');
      await refusedPage.locator('main.app-main').waitFor();
      await refusedPage.getByText('forbidden-by-test').first().waitFor();
      // A retry would come after react-query's delay (1 s for the first): the page's clock is
      // moved past it, then the test asks itself. A retry would reach the route before that.
      await refusedPage.clock.runFor(FIRST_RETRY_DELAY_MS + 1);
      await refusedPage.evaluate(() => fetch('/api/getCurrentUser', { headers: { 'x-e2e-marker': 'after' } }).then(() => undefined));
      expect(batches).toBe(1);
      expect(calls).toEqual(['after']);
      await rendered(refusedPage);
      expect(await refusedPage.getByText('forbidden-by-test').count()).toBe(1);
    } finally {
      await refused.close();
    }
  });

  it('switches the language and keeps it after a reload', async () => {
    const other: Lang = lang === 'zh-CN' ? 'en-US' : 'zh-CN';
    const fresh = await newPhone(browser, lang, { token: user.token });
    const settings = await fresh.newPage();
    try {
      await open(settings, '/settings');
      await expect.poll(() => navTitle(settings)).toBe(t(lang, 'routes.settings'));
      await settings.getByTestId('settings-language').click();
      await settings.locator('.adm-action-sheet-button-item', { hasText: t(other, `languages.${other}`) }).click();
      await expect.poll(() => navTitle(settings)).toBe(t(other, 'routes.settings'));
      expect(await settings.title()).toBe(pageTitle(other, 'routes.settings'));
      expect(await settings.evaluate(() => document.documentElement.lang)).toBe(other);

      const [request] = await Promise.all([settings.waitForRequest(asksCurrentUser), settings.reload()]);
      expect((await request.allHeaders())['accept-language']).toBe(other);
      await settings.locator('main.app-main').waitFor();
      await expect.poll(() => navTitle(settings)).toBe(t(other, 'routes.settings'));
      expect(await settings.evaluate((key) => localStorage.getItem(key), KEYS.language)).toBe(other);
      // antd-mobile's own texts follow too (its locale pack is loaded on demand).
      await settings.getByTestId('logout').click();
      await settings.locator('.adm-dialog-button', { hasText: t(other, 'common.cancel') }).click();
    } finally {
      await fresh.close();
    }
  });

  it('switches to the dark theme and keeps it after a reload', async () => {
    const fresh = await newPhone(browser, lang, { token: user.token });
    const settings = await fresh.newPage();
    const scheme = () => settings.evaluate(() => document.documentElement.getAttribute('data-prefers-color-scheme'));
    const themeColor = () => settings.evaluate(() => document.querySelector('meta[name="theme-color"]')?.getAttribute('content'));
    try {
      await open(settings, '/settings');
      expect(await scheme()).toBe('light');
      expect(await themeColor()).toBe('#00aba9');
      await settings.getByTestId('settings-dark').click();
      await expect.poll(scheme).toBe('dark');
      expect(await themeColor()).toBe('#ffffff');
      await settings.reload();
      await settings.locator('main.app-main').waitFor();
      expect(await scheme()).toBe('dark');
      expect(await settings.evaluate((key) => localStorage.getItem(key), KEYS.theme)).toBe('dark');
      const background = await settings.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
      expect(r + g + b, background).toBeLessThan(150);
      expect(await settings.getByTestId('settings-dark').getAttribute('aria-checked')).toBe('true');
    } finally {
      await fresh.close();
    }
  });
});
