import { randomUUID } from 'node:crypto';
import type { AdminSwapPair } from '@coffer/contract/admin';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, LANGS, type Lang, newPhone, type TestUser, text } from './app';
import { E2E_OPERATOR_EMAIL, E2E_SECOND_OPERATOR_EMAIL } from './harness';
import { currencyId, fund, must, operatorToken, signInOperator as registerOperator } from './wallet-support';
import { CONSOLE_TOKEN_KEY, ct, openConsoleAs, signInConsoleWithCode, submitPassword } from './console-support';

/** The operator console (apps/console at /console): role check, a swap rate and a banner end to end, every page. */

/** localStorage key of the console's language (apps/console/src/lib/session.ts). */
const CONSOLE_LANGUAGE_KEY = 'coffer.console.language';

/** A 2x1 PNG: the upload endpoint sniffs the real type from these bytes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8Dwn4GBgQEAGAYC/t5KNY8AAAAASUVORK5CYII=', 'base64');

interface Violation {
  directive: string;
  blockedURI: string;
}
/** Where the init script keeps them (security.test.ts declares the same name for its own shape). */
type Recorder = { __consoleCsp: Violation[] };
const violations = (page: Page) => page.evaluate(() => (window as unknown as Recorder).__consoleCsp);

/** A desktop browser in `lang`, recording CSP violations from each document's first byte. */
async function newDesktop(browser: Browser, lang: Lang): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: lang,
    baseURL: baseURL(),
    storageState: { cookies: [], origins: [{ origin: baseURL(), localStorage: [{ name: CONSOLE_LANGUAGE_KEY, value: lang }] }] },
  });
  await context.addInitScript(() => {
    const recorder = window as unknown as Recorder;
    recorder.__consoleCsp = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      recorder.__consoleCsp.push({ directive: event.effectiveDirective, blockedURI: event.blockedURI });
    });
  });
  return context;
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

const signIn = submitPassword;
const signInOperator = (page: Page, lang: Lang) => openConsoleAs(page, lang);

async function openMenu(page: Page, lang: Lang, key: string) {
  await page.getByRole('menuitem', { name: ct(lang, key) }).click();
  await page.getByRole('heading', { name: ct(lang, key) }).waitFor();
}

describe('operator console', () => {
  let browser: Browser;
  let user: TestUser;
  let userUid: number;

  beforeAll(async () => {
    browser = await connectBrowser();
    user = await createUser('en-US', 'Console watcher');
    userUid = (await must<{ uid: number }>('/getCurrentUser', { token: user.token })).uid;
    // A balance: the wallet's /swap needs one, and the user's console page shows it.
    await fund(user.email, '100');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('refuses a user without the operator role and signs them out', async () => {
    const context = await newDesktop(browser, 'en-US');
    try {
      const page = await context.newPage();
      await signIn(page, 'en-US', user.email, user.password);
      await page.getByText(ct('en-US', 'auth.noPermission')).waitFor();
      expect(new URL(page.url()).pathname).toBe('/console/login');
      expect(await page.evaluate((key) => localStorage.getItem(key), CONSOLE_TOKEN_KEY)).toBeNull();
      // Straight to a page: back to sign-in, nothing shown.
      await page.goto('/console/users');
      await page.getByRole('button', { name: ct('en-US', 'auth.signIn'), exact: true }).waitFor();
      // The API refuses them whatever the pages do.
      const reply = await fetch(`${baseURL()}/api/admin/dashboard`, { headers: { 'x-token': user.token } });
      expect(reply.status).toBe(403);
    } finally {
      await context.close();
    }
  });

  it('shows custody per network on the dashboard: hot wallet, float and a zero drift', async () => {
    const context = await newDesktop(browser, 'en-US');
    try {
      const page = await context.newPage();
      await signInOperator(page, 'en-US');
      const card = page.locator('.ant-card', { hasText: ct('en-US', 'dashboard.custody') });
      await card.waitFor();
      // the server reconciled at start: the local chain's funding is the float, nothing drifts
      const eth = card.getByRole('row', { name: /ETH/ }).first();
      await eth.waitFor();
      // amounts as the phone app shows them: grouped, at the currency's display precision (ETH: 6)
      expect(await eth.textContent()).toContain('1,000.000000');
      expect(await card.getByText('0', { exact: true }).count()).toBeGreaterThan(0);
      // booking a funding: a transaction that paid nothing to the hot wallet is refused (3031)
      await card.getByRole('button', { name: ct('en-US', 'dashboard.fund') }).click();
      const dialog = page.getByRole('dialog', { name: ct('en-US', 'dashboard.fund') });
      await dialog.getByLabel(ct('en-US', 'dashboard.txHash')).fill(`0x${'11'.repeat(32)}`);
      await dialog.getByLabel(ct('en-US', 'common.reason')).fill('e2e: not a funding');
      await dialog.getByRole('button', { name: ct('en-US', 'common.confirm') }).click();
      // the confirm step repeats the network, transaction and reason before anything is sent
      const confirm = page.getByRole('dialog', { name: ct('en-US', 'dashboard.fundConfirmTitle') });
      expect(await confirm.getByTestId('money-tx').textContent()).toBe(`0x${'11'.repeat(32)}`);
      expect(await confirm.getByTestId('money-reason').textContent()).toBe('e2e: not a funding');
      await confirm.getByRole('button', { name: ct('en-US', 'dashboard.fundConfirm') }).click();
      await page.getByText(/cannot be booked as float/).waitFor();
    } finally {
      await context.close();
    }
  });

  it("edits a swap pair's rate in the console, and a user's /swap shows the new rate", async () => {
    const token = await operatorToken();
    const pairs = await must<AdminSwapPair[]>('/admin/swap/pairs', { token });
    const original = pairs.find((p) => p.fromCode === 'USDT' && p.toCode === 'ETH');
    if (!original) throw new Error('no USDT → ETH pair');
    const context = await newDesktop(browser, 'zh-CN');
    const phone = await newPhone(browser, 'en-US', { token: user.token });
    try {
      const page = await context.newPage();
      await signInOperator(page, 'zh-CN');
      await openMenu(page, 'zh-CN', 'nav.swap');
      const pair = 'USDT → ETH';
      await page.getByRole('button', { name: ct('zh-CN', 'swap.editPair', { pair }) }).click();
      const dialog = page.getByRole('dialog', { name: ct('zh-CN', 'swap.editPair', { pair }) });
      await dialog.getByLabel(ct('zh-CN', 'swap.midRate')).fill('0.0004');
      await dialog.getByLabel(ct('zh-CN', 'swap.spreadBps')).fill('0');
      await dialog.getByLabel(ct('zh-CN', 'common.reason')).fill('e2e: 新汇率');
      await dialog.getByRole('button', { name: ct('zh-CN', 'common.save') }).click();
      await page.getByText(ct('zh-CN', 'common.saved')).waitFor();
      await page.getByRole('cell', { name: '0.0004', exact: true }).waitFor();

      const wallet = await phone.newPage();
      await wallet.goto('/swap');
      await wallet.getByTestId('swap-to').click();
      await wallet.getByTestId('currency-option-ETH').click();
      // The wallet reads small rates the natural way round: 1 / 0.0004 = 2,500 USDT per ETH.
      await expect.poll(() => text(wallet.getByTestId('swap-rate')), { timeout: 15_000 }).toMatch(/^1 ETH ≈ 2,500(\.0+)? USDT$/);

      // The change is in the audit trail with its reason.
      const trail = await must<{ list: { action: string; reason: string | null; actor: string }[] }>(
        `/admin/audit-trail?targetType=swap_pair&targetId=${original.id}`,
        { token },
      );
      expect(trail.list[0]).toMatchObject({ reason: 'e2e: 新汇率', actor: E2E_OPERATOR_EMAIL });
    } finally {
      await context.close();
      await phone.close();
      // Other files on this server expect the seeded rate.
      const { id, midRate, spreadBps, feeBps, minAmount, maxAmount, enabled } = original;
      await must(`/admin/swap/pairs/${id}`, {
        token,
        body: { midRate, spreadBps, feeBps, minAmount, maxAmount, enabled, reason: 'e2e: restore' },
      });
    }
  });

  it.each(LANGS)(
    "support in %s: reads a user's security events, ends their withdrawal hold and signs them out everywhere",
    async (lang) => {
      const member = await createUser(lang);
      const newPassword = 'p4ssword-changed-1';
      // A password change opens a withdrawal hold (a credential change) and shows as an event.
      await must('/security/changePassword', { token: member.token, body: { currentPassword: member.password, newPassword } });
      const uid = (await must<{ uid: number }>('/getCurrentUser', { token: member.token })).uid;
      const context = await newDesktop(browser, lang);
      try {
        const page = await context.newPage();
        await signInOperator(page, lang);
        await page.goto(`/console/users/${uid}`);
        await page.getByRole('heading', { name: member.email }).waitFor();
        const events = page.getByTestId('user-security-events');
        await events.getByText(ct(lang, 'users.eventCode.password_changed'), { exact: false }).waitFor();
        await events.getByText(ct(lang, 'users.holdActive')).waitFor();

        await page.getByTestId('user-end-holds').click();
        const endDialog = page.getByRole('dialog', { name: ct(lang, 'users.endHoldsTitle', { email: member.email }) });
        await endDialog.getByLabel(ct(lang, 'common.reason')).fill('e2e: owner confirmed by phone');
        await endDialog.getByRole('button', { name: ct(lang, 'users.endHolds') }).click();
        await page.getByText(ct(lang, 'users.holdsEnded')).waitFor();
        await expect.poll(() => events.getByText(ct(lang, 'users.holdActive')).count()).toBe(0);

        await page.getByTestId('user-sign-out').click();
        const outDialog = page.getByRole('dialog', { name: ct(lang, 'users.signOutTitle', { email: member.email }) });
        await outDialog.getByLabel(ct(lang, 'common.reason')).fill('e2e: phone stolen');
        await outDialog.getByRole('button', { name: ct(lang, 'users.signOut') }).click();
        await page.getByText(ct(lang, 'users.signedOut')).waitFor();
        await expect.poll(() => page.getByTestId('user-sign-out').count()).toBe(0);
        const reply = await fetch(`${baseURL()}/api/getCurrentUser`, { headers: { 'x-token': member.token } });
        expect(((await reply.json()) as { code: number }).code).toBe(2001);
      } finally {
        await context.close();
      }
    },
  );

  it('four eyes: an adjustment above the threshold is confirmed, waits, is refused to its own operator and made by a second', async () => {
    await registerOperator(E2E_SECOND_OPERATOR_EMAIL);
    const member = await createUser('en-US');
    const balance = async () =>
      (await must<{ available: string }>(`/currency/balance/${await currencyId('USDT')}`, { token: member.token })).available;
    const first = await newDesktop(browser, 'zh-CN');
    const second = await newDesktop(browser, 'en-US');
    try {
      const page = await first.newPage();
      await signInOperator(page, 'zh-CN');
      await openMenu(page, 'zh-CN', 'nav.ledger');
      await page.getByLabel(ct('zh-CN', 'ledger.user')).fill(member.email);
      await page.getByLabel(ct('zh-CN', 'common.currency')).click();
      await page.getByTitle('USDT', { exact: true }).click();
      await page.getByLabel(ct('zh-CN', 'common.amount')).fill('25000');
      await page.getByLabel(ct('zh-CN', 'common.reason')).fill('e2e: 迁移旧系统余额');
      await page.getByRole('button', { name: ct('zh-CN', 'ledger.submit') }).click();
      // The confirm step repeats the figures before anything is sent.
      const confirm = page.getByTestId('adjust-confirm');
      await confirm.getByText('+25000 USDT').waitFor();
      await confirm.getByText(member.email).waitFor();
      await page.getByRole('button', { name: ct('zh-CN', 'ledger.confirm') }).click();
      await page.getByText(/申请 \d+ 需另一位运营人员审批/).waitFor();
      expect(await balance()).toBe('0');
      const row = page.getByTestId('adjust-requests').getByRole('row').filter({ hasText: member.email });
      await row.getByRole('button', { name: ct('zh-CN', 'ledger.approve') }).click();
      const own = page.getByRole('dialog', { name: /批准申请/ });
      await own.getByLabel(ct('zh-CN', 'common.reason')).fill('e2e: 自己批准');
      await own.getByRole('button', { name: ct('zh-CN', 'ledger.approve') }).click();
      await page.getByText('需要另一位运营人员审批，发起人不能审批自己的申请').waitFor();
      expect(await balance()).toBe('0');

      const other = await second.newPage();
      await openConsoleAs(other, 'en-US', E2E_SECOND_OPERATOR_EMAIL);
      await openMenu(other, 'en-US', 'nav.ledger');
      const theirRow = other.getByTestId('adjust-requests').getByRole('row').filter({ hasText: member.email });
      await theirRow.getByText('25,000.00 USDT').waitFor();
      await theirRow.getByText(E2E_OPERATOR_EMAIL).waitFor();
      await theirRow.getByRole('button', { name: ct('en-US', 'ledger.approve') }).click();
      const approve = other.getByRole('dialog', { name: /Approve request/ });
      await approve.getByLabel(ct('en-US', 'common.reason')).fill('e2e: migration sheet checked');
      await approve.getByRole('button', { name: ct('en-US', 'ledger.approve') }).click();
      await other.getByText(/Request \d+ approved/).waitFor();
      expect(await balance()).toBe('25000');
      await expect.poll(() => theirRow.count()).toBe(0);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('publishes a banner with an uploaded image, and a user sees it on the home page', async () => {
    const context = await newDesktop(browser, 'en-US');
    const phone = await newPhone(browser, 'en-US', { token: user.token });
    const title = `Console banner ${randomUUID().slice(0, 8)}`;
    try {
      const page = await context.newPage();
      await signInOperator(page, 'en-US');
      await openMenu(page, 'en-US', 'nav.banners');
      await page.getByRole('button', { name: ct('en-US', 'content.newBanner') }).click();
      const dialog = page.getByRole('dialog', { name: ct('en-US', 'content.newBanner') });
      await dialog.getByLabel(ct('en-US', 'content.titleZh')).fill(`控制台横幅 ${title.slice(-8)}`);
      await dialog.getByLabel(ct('en-US', 'content.titleEn')).fill(title);
      await dialog.getByLabel(ct('en-US', 'content.bodyEn')).fill('**Hello** from the console');
      await dialog.locator('input[type="file"]').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
      const imageField = dialog.getByLabel(ct('en-US', 'content.imageUrl'));
      await expect.poll(() => imageField.inputValue()).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
      const imageUrl = await imageField.inputValue();
      await dialog.getByRole('button', { name: ct('en-US', 'common.save') }).click();
      await page.getByRole('cell', { name: title, exact: true }).waitFor();

      const home = await phone.newPage();
      await home.goto('/');
      const slide = home.getByTestId('banner-carousel').getByRole('img', { name: title }).first();
      await slide.waitFor({ state: 'attached', timeout: 20_000 });
      expect(await slide.getAttribute('src')).toBe(imageUrl);
      const served = await home.request.get(imageUrl);
      expect(served.status()).toBe(200);
      expect(served.headers()['content-type']).toBe('image/png');
    } finally {
      await context.close();
      await phone.close();
    }
  });

  /** Every page of the console, with what shows that it has rendered. */
  const pages: [string, string][] = [
    ['/', 'nav.dashboard'],
    ['/users', 'nav.users'],
    ['/ledger', 'nav.ledger'],
    ['/swap', 'nav.swap'],
    ['/networks', 'nav.networks'],
    ['/withdrawals', 'nav.withdrawals'],
    ['/content/banners', 'nav.banners'],
    ['/content/notices', 'nav.notices'],
    ['/content/help', 'nav.help'],
    ['/activities', 'nav.activities'],
    ['/audit-trail', 'nav.auditTrail'],
    ['/alerts', 'alerts.title'],
    ['/operators', 'nav.operators'],
  ];

  it.each(LANGS)('opens every page in %s without console errors or CSP violations', async (lang) => {
    const context = await newDesktop(browser, lang);
    try {
      const page = await context.newPage();
      const errors = collectErrors(page);
      // A session of its own, through the sign-in form: this journey ends by signing it out.
      await signInConsoleWithCode(page, lang);
      for (const [path, heading] of pages) {
        const response = await page.goto(`/console${path}`);
        expect(response?.headers()['content-security-policy'], path).toMatch(/style-src-elem 'self' 'nonce-/);
        await page.getByRole('heading', { name: ct(lang, heading) }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(await violations(page), path).toEqual([]);
      }
      // A user's page (the watcher registered above), then the language switch and sign-out.
      await page.goto(`/console/users/${userUid}`);
      await page.getByRole('heading', { name: user.email }).waitFor();
      await page.getByRole('cell', { name: 'USDT', exact: true }).first().waitFor();
      const other: Lang = lang === 'zh-CN' ? 'en-US' : 'zh-CN';
      await page.getByRole('combobox', { name: ct(lang, 'shell.language') }).click();
      await page.getByTitle(other === 'zh-CN' ? '简体中文' : 'English').click();
      await page.getByRole('button', { name: ct(other, 'shell.signOut') }).click();
      await page.getByRole('button', { name: ct(other, 'auth.signIn'), exact: true }).waitFor();
      expect(await page.evaluate((key) => localStorage.getItem(key), CONSOLE_TOKEN_KEY)).toBeNull();
      expect(errors).toEqual([]);
      expect(await violations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers the console page with a nonce its CSP names, fresh each time', async () => {
    const pagesSeen = await Promise.all([0, 1].map(() => fetch(`${baseURL()}/console/ledger`)));
    const nonces = await Promise.all(
      pagesSeen.map(async (res) => {
        const html = await res.text();
        const inPage = /name="csp-nonce" content="([^"]+)"/.exec(html)?.[1];
        expect(res.headers.get('content-security-policy')).toContain(`'nonce-${inPage}'`);
        return inPage;
      }),
    );
    expect(new Set(nonces).size).toBe(2);
  });
});
