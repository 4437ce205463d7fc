import { createRequire } from 'node:module';
import type { Network } from '@coffer/contract/chain';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  animationsDone,
  connectBrowser,
  createUser,
  KEYS,
  LANGS,
  type Lang,
  newPhone,
  rendered,
  requestsSettled,
  type TestUser,
  t,
  text,
  trackRequests,
} from './app';
import { createBanner, createNotice, gradientPng, retireBanner, uploadImage } from './content-support';
import { apiSwap, apiTransfer, fund, must, openPage, apiWithdrawEth } from './wallet-support';

/**
 * Decision 022: axe-core on every phone route (signed in, and the public ones signed
 * out), light and dark, must find nothing serious or critical, contrast and WCAG 2.2
 * target size included; the shell is usable from a keyboard; inputs have real labels.
 */
const AXE_SOURCE: string = createRequire(import.meta.url)('axe-core').source;

/** Axe's WCAG A/AA tags up to 2.2; `target-size` (2.5.8) is wcag22aa and switched on explicitly. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);

/** The routes of e2e/src/shell.test.ts (docs/product.md §2) a signed-in user opens. */
const SIGNED_IN_ROUTES = [
  '/',
  '/swap',
  '/bill/all',
  '/profile',
  '/bill?type=transfer',
  '/bill?type=swap',
  '/bill?type=charge',
  '/bill?type=withdraw',
  '/charge',
  '/withdraw',
  '/transfer',
  '/settings',
  '/helpCenter',
  '/noticeCenter',
  '/banner/ranking',
  '/no-such-page',
  '/charts',
  '/counter',
  '/keepalive',
  '/mock',
  '/scroll-cache',
  '/unocss',
];
const PUBLIC_ROUTES = ['/login', '/register', '/forgot-password', '/swap', '/helpCenter'];
/** Detail routes that need a record id: the records are made through the API first. */
const DETAIL_ROUTES = ['transfer record', 'swap record', 'statement line', 'deposit', 'withdrawal', 'notice', 'banner'] as const;
/** Where the withdrawal of the detail check goes: a plain outside address on the local chain. */
const OUTSIDE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
type DetailRoute = (typeof DETAIL_ROUTES)[number];
const THEMES = ['light', 'dark'] as const;

/** Tries, 200 ms apart, for the deposit the chain loop records within a block or two of the faucet. */
const DEPOSIT_TRIES = 75;

async function latestDepositId(token: string): Promise<number> {
  for (let i = 0; i < DEPOSIT_TRIES; i += 1) {
    const page = await must<{ list: { id: number }[] }>('/deposit/getDepositList', { token, body: { page: 1, pageSize: 1 } });
    if (page.list[0]) return page.list[0].id;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the faucet deposit was not recorded');
}

interface AxeNode {
  target: string[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: AxeNode[];
}

/** Serious and critical violations on the page as it stands, one line per rule. */
async function blockingViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol: the app's CSP (rightly) refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      rules: { 'target-size': { enabled: true } },
      resultTypes: ['violations'],
    });
    return result.violations as AxeViolation[];
  }, AXE_TAGS);
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 6)
          .join(' | ')}`,
    );
}

/** Opens a route and waits until its first data has replaced the skeletons. */
/** Each page's unanswered requests, tracked from its first visit on. */
const requestsOf = new WeakMap<Page, Set<Request>>();

async function settle(page: Page, path: string) {
  const open = requestsOf.get(page) ?? trackRequests(page);
  requestsOf.set(page, open);
  await page.goto(path);
  await page.locator('main.app-main').waitFor();
  await expect.poll(() => page.locator('.adm-skeleton, .adm-dot-loading').count(), { timeout: 10_000 }).toBe(0);
  // Every answer in and drawn, fonts loaded, and the transitions they started over (a button
  // enabled by a late answer fades in from its disabled look: axe read it mid-fade once).
  await requestsSettled(page, open);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await animationsDone(page);
  await rendered(page);
}

async function themed(browser: Browser, lang: Lang, theme: string, token?: string): Promise<BrowserContext> {
  return newPhone(browser, lang, { ...(token ? { token } : {}), localStorage: { [KEYS.theme]: theme } });
}

describe.each(LANGS)('accessibility (%s)', (lang: Lang) => {
  let browser: Browser;
  let user: TestUser;
  let banner: { id: number } | undefined;
  let detailPaths: Record<DetailRoute, string>;

  beforeAll(async () => {
    browser = await connectBrowser();
    let friend: TestUser;
    [user, friend] = await Promise.all([createUser(lang), createUser(lang, 'Friend')]);
    // Records on the lists so rows, amounts and statuses are checked too.
    await fund(user.email, '100');
    const transfer = await apiTransfer(user, friend.email, '3', 'a11y');
    const swap = await apiSwap(user, 'USDT', 'ETH', '10');
    const statement = await must<{ list: { id: number }[] }>('/getTurnover', { token: user.token, body: { page: 1, pageSize: 1 } });
    // A deposit from the local chain's faucet, and a withdrawal confirmed with the mailed code.
    const eth = (await must<Network[]>('/currency/onchain')).find((n) => n.code === 'ETH')!;
    await must('/deposit/faucet', { token: user.token, body: { networkId: eth.id } });
    await fund(user.email, '1', 'ETH');
    const withdrawal = await apiWithdrawEth(user, '0.01', OUTSIDE);
    const depositId = await latestDepositId(user.token);
    const stamp = Date.now();
    const notice = await createNotice({ titleZh: `无障碍 ${stamp}`, titleEn: `Accessibility ${stamp}`, bodyEn: 'A **short** note.' });
    banner = await createBanner({
      titleZh: `无障碍横幅 ${stamp}`,
      titleEn: `Accessible banner ${stamp}`,
      bodyZh: '**正文**',
      bodyEn: 'The **body**.',
      imageUrl: await uploadImage(gradientPng(150, 75, [0, 171, 169], [11, 95, 122])),
      link: { type: 'detail' },
    });
    detailPaths = {
      'transfer record': `/bill/detail?type=transfer&id=${transfer.id}`,
      'swap record': `/bill/detail?type=swap&id=${swap.id}`,
      'statement line': `/bill/detail?type=turnover&id=${statement.list[0]!.id}`,
      deposit: `/bill/detail?type=charge&id=${depositId}`,
      withdrawal: `/bill/detail?type=withdraw&id=${withdrawal.id}`,
      notice: `/noticeCenter/detail?id=${notice.id}`,
      banner: `/banner/detail?id=${banner.id}`,
    };
  });

  afterAll(async () => {
    // A live banner would show on every later file's home carousel.
    if (banner) await retireBanner(banner.id);
    await browser?.close();
  });

  describe.each(THEMES)('axe, %s theme', (theme) => {
    let context: BrowserContext;
    let page: Page;
    let publicContext: BrowserContext;
    let publicPage: Page;

    beforeAll(async () => {
      context = await themed(browser, lang, theme, user.token);
      page = await openPage(context);
      publicContext = await themed(browser, lang, theme);
      publicPage = await openPage(publicContext);
    });

    afterAll(async () => {
      await context?.close();
      await publicContext?.close();
    });

    it.each(SIGNED_IN_ROUTES)('signed in: %s', async (path) => {
      await settle(page, path);
      expect(await blockingViolations(page)).toEqual([]);
    });

    it.each(DETAIL_ROUTES)('signed in detail: %s', async (route) => {
      await settle(page, detailPaths[route]);
      // The record itself is on screen, not a not-found or failed state.
      expect(await page.locator('.adm-error-block, [data-testid$=-load-failed]').count()).toBe(0);
      expect(await blockingViolations(page)).toEqual([]);
    });

    it.each(PUBLIC_ROUTES)('signed out: %s', async (path) => {
      await settle(publicPage, path);
      expect(await blockingViolations(publicPage)).toEqual([]);
    });
  });

  describe('keyboard and labels', () => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      context = await newPhone(browser, lang, { token: user.token });
      page = await openPage(context);
    });

    afterAll(async () => {
      await context?.close();
    });

    /** Presses Tab until `locator` holds the focus (or gives up after `max` presses). */
    async function tabTo(locatorMatches: () => Promise<boolean>, max = 40): Promise<boolean> {
      for (let i = 0; i < max; i += 1) {
        await page.keyboard.press('Tab');
        if (await locatorMatches()) return true;
      }
      return false;
    }

    it('reaches every tab of the tab bar with Tab and opens it with Enter or Space', async () => {
      await settle(page, '/');
      const swapTab = page.locator('.app-tab-bar').getByRole('link', { name: t(lang, 'tabs.swap'), exact: true });
      expect(await tabTo(() => swapTab.evaluate((el) => el === document.activeElement).catch(() => false))).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/swap');

      const profileTab = page.locator('.app-tab-bar').getByRole('link', { name: t(lang, 'tabs.profile'), exact: true });
      await profileTab.focus();
      await page.keyboard.press('Space');
      await page.waitForURL((url) => url.pathname === '/profile');
      await expect.poll(() => page.locator('.app-tab-bar').getByRole('link').count()).toBe(4);
    });

    it('reaches the back button with Tab and goes back with Enter', async () => {
      await settle(page, '/');
      await page.getByRole('link', { name: t(lang, 'tabs.profile'), exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/profile');
      await settle(page, '/settings');
      const back = page.locator('.app-nav-bar').getByRole('button', { name: t(lang, 'nav.back') });
      expect(await tabTo(() => back.evaluate((el) => el === document.activeElement).catch(() => false))).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname !== '/settings');
    });

    const focused = (locator: Locator) => () => locator.evaluate((el) => el === document.activeElement).catch(() => false);

    it('picks a records tab on /bill with Tab, then Enter or Space', async () => {
      await settle(page, '/bill?type=transfer');
      const swaps = page.getByRole('tab', { name: t(lang, 'bill.tabs.swap'), exact: true });
      expect(await swaps.getAttribute('aria-selected')).toBe('false');
      expect(await tabTo(focused(swaps))).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('type') === 'swap');
      await expect.poll(() => swaps.getAttribute('aria-selected')).toBe('true');
      await page.locator('[data-testid^=swap-row-]').first().waitFor();

      // Every tab is in the Tab order: the next one is one press away.
      await page.keyboard.press('Tab');
      const topUps = page.getByRole('tab', { name: t(lang, 'bill.tabs.charge'), exact: true });
      expect(await focused(topUps)()).toBe(true);
      await page.keyboard.press('Space');
      await page.waitForURL((url) => url.searchParams.get('type') === 'charge');
      await expect.poll(() => topUps.getAttribute('aria-selected')).toBe('true');
      await page.getByTestId('bill-page-charge').waitFor();
    });

    it('switches /transfer between e-mail and UID with Tab and Space', async () => {
      await settle(page, '/transfer');
      const byUid = page.getByRole('tab', { name: t(lang, 'transfer.byUid'), exact: true });
      expect(await tabTo(focused(byUid))).toBe(true);
      await page.keyboard.press('Space');
      await expect.poll(() => byUid.getAttribute('aria-selected')).toBe('true');
      expect(await page.getByRole('textbox', { name: t(lang, 'transfer.recipient') }).getAttribute('name')).toBe('recipient-uid');
      const byEmail = page.getByRole('tab', { name: t(lang, 'transfer.byEmail'), exact: true });
      await byEmail.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => byEmail.getAttribute('aria-selected')).toBe('true');
    });

    it('filters /bill/all from the keyboard: open with Enter, pick with Space, Escape closes', async () => {
      await settle(page, '/bill/all');
      const lines = page.locator('[data-testid^=turnover-row-]');
      // Credits, the transfer, the swap's two lines, the chain records: more than the swap's.
      await expect.poll(() => lines.count()).toBeGreaterThan(2);
      const typeFilter = page.getByTestId('filter-type');
      expect(await tabTo(focused(typeFilter))).toBe(true);
      expect(await typeFilter.getAttribute('aria-expanded')).toBe('false');
      await page.keyboard.press('Enter');
      await expect.poll(() => typeFilter.getAttribute('aria-expanded')).toBe('true');
      const choices = page.getByRole('group', { name: t(lang, 'statement.filters.type') });
      const swapChoice = choices.getByRole('button', { name: t(lang, 'statement.types.swap'), exact: true });
      expect(await tabTo(focused(swapChoice), 12)).toBe(true);
      await page.keyboard.press('Space');
      await page.waitForURL((url) => url.searchParams.get('type') === 'swap');
      await expect.poll(() => lines.count()).toBe(2);
      // The choices close and the focus is back on their button.
      expect(await choices.count()).toBe(0);
      expect(await focused(typeFilter)()).toBe(true);
      expect(await text(typeFilter)).toBe(t(lang, 'statement.types.swap'));

      await page.keyboard.press('Enter');
      await choices.waitFor();
      expect(await choices.getByRole('button', { pressed: true }).textContent()).toBe(t(lang, 'statement.types.swap'));
      const pressed = choices.getByRole('button', { pressed: true });
      expect(await tabTo(focused(pressed), 12)).toBe(true);
      await page.keyboard.press('Escape');
      await choices.waitFor({ state: 'detached' });
      expect(await focused(typeFilter)()).toBe(true);
    });

    it('labels the amount, recipient and memo fields with their own names, not placeholders', async () => {
      await settle(page, '/transfer');
      // Named by its label first; the hint (or the typed value) follows, as it is what is shown.
      const amount = page.getByRole('button', { name: new RegExp(`^${t(lang, 'transfer.amount')}: `) });
      expect(await amount.count()).toBe(1);
      expect(await page.getByRole('textbox', { name: t(lang, 'transfer.recipient') }).count()).toBe(1);
      expect(await page.getByRole('textbox', { name: t(lang, 'transfer.memo'), exact: true }).count()).toBe(1);
    });
  });
});
