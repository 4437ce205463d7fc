import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, LANGS } from './app';
import {
  createBanner,
  createHelpArticle,
  createHelpTopic,
  createLiveActivity,
  createNotice,
  gradientPng,
  uidOf,
  uploadImage,
} from './content-support';
import { REPO_ROOT } from './harness';
import { apiSwap, fund, must, operatorToken, apiWithdrawEth } from './wallet-support';
import { ct, openConsoleAs } from './console-support';

/**
 * The operator console's screens into docs/screenshots/console-<lang>-<page>.png:
 * `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts src/console-screenshots.shoot.ts`.
 */
const outDir = process.env.SCREENSHOTS_DIR ?? join(REPO_ROOT, 'docs/screenshots');
mkdirSync(outDir, { recursive: true });

async function capture(page: Page, file: string) {
  await page.waitForLoadState('networkidle');
  await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' });
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached' });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
  const target = join(outDir, `${file}.png`);
  await page.screenshot({ path: target, fullPage: true });
  expect(statSync(target).size, file).toBeGreaterThan(10_000);
}

describe('console screenshots', () => {
  let browser: Browser;
  let userUid: number;

  beforeAll(async () => {
    browser = await connectBrowser();
    await operatorToken();
    // Something to show: a funded user with a swap, content, an activity, an audit run.
    const user = await createUser('en-US', 'Alice');
    userUid = await uidOf(user);
    await fund(user.email, '2500');
    await apiSwap(user, 'USDT', 'ETH', '300');
    // A withdrawal in review (above the ETH network's review threshold), asked before the
    // password change below holds withdrawals: the queue shows its destination and facts.
    await fund(user.email, '80', 'ETH');
    await apiWithdrawEth(user, '60', '0x8ba1f109551bD432803012645Ac136ddd64DBA72');
    // The user page's security events (a sign-in, a password change that holds withdrawals) and a linked account.
    await must('/security/changePassword', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'p4ssword-changed-1' },
    });
    const partner = await createUser('en-US', 'Bob');
    await must(`/admin/users/${userUid}/links`, {
      token: await operatorToken(),
      body: { uid: await uidOf(partner), reason: 'Same household: one delivery address and one phone' },
    });
    const image = await uploadImage(gradientPng(750, 375, [22, 119, 255], [114, 46, 209]));
    await createBanner({
      titleZh: '新用户闪兑优惠',
      titleEn: 'Swap welcome offer',
      imageUrl: image,
      link: { type: 'detail' },
      bodyEn: 'Hello',
    });
    await createNotice({ titleZh: '系统维护通知', titleEn: 'Scheduled maintenance', bodyZh: '今晚维护。', bodyEn: 'Tonight.' });
    const topic = await createHelpTopic({ key: 'security-tips', titleZh: '安全提示', titleEn: 'Security tips' });
    await createHelpArticle({
      topicId: topic.id,
      titleZh: '如何开启两步验证',
      titleEn: 'Turning on two-factor',
      bodyZh: '在安全中心开启。',
      bodyEn: 'In the security centre.',
    });
    await createLiveActivity({ titleZh: '闪兑排行榜', titleEn: 'Swap leaderboard' }, [
      { rankFrom: 1, rankTo: 1, amount: '100' },
      { rankFrom: 2, rankTo: 3, amount: '50' },
    ]);
    await must('/admin/ledger/audit/run', { token: await operatorToken(), body: {} });
  });

  afterAll(async () => {
    await browser?.close();
  });

  // Thirteen full-page captures each: more than the suite's 60 s on a loaded two-core runner.
  it.each(LANGS)(
    'console screens in %s',
    async (lang) => {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale: lang,
        baseURL: baseURL(),
        storageState: { cookies: [], origins: [{ origin: baseURL(), localStorage: [{ name: 'coffer.console.language', value: lang }] }] },
      });
      try {
        const page = await context.newPage();
        await page.goto('/console/login');
        await page.getByLabel(ct(lang, 'auth.email')).waitFor();
        await capture(page, `console-${lang}-login`);
        await openConsoleAs(page, lang);
        const shots: [string, string, string][] = [
          ['/', 'nav.dashboard', 'dashboard'],
          ['/users', 'nav.users', 'users'],
          ['/ledger', 'nav.ledger', 'ledger'],
          ['/swap', 'nav.swap', 'swap'],
          ['/withdrawals', 'nav.withdrawals', 'withdrawals'],
          ['/content/banners', 'nav.banners', 'banners'],
          ['/content/notices', 'nav.notices', 'notices'],
          ['/content/help', 'nav.help', 'help'],
          ['/activities', 'nav.activities', 'activities'],
          ['/audit-trail', 'nav.auditTrail', 'audit-trail'],
        ];
        for (const [path, heading, file] of shots) {
          await page.goto(`/console${path}`);
          await page.getByRole('heading', { name: ct(lang, heading) }).waitFor();
          if (file === 'withdrawals') await page.getByTestId('destination').first().waitFor();
          await capture(page, `console-${lang}-${file}`);
        }
        await page.goto(`/console/users/${userUid}`);
        await page.getByRole('cell', { name: 'USDT', exact: true }).first().waitFor();
        await page.getByTestId('user-security-events').getByText(ct(lang, 'users.holdActive')).waitFor();
        await page
          .getByTestId('user-links')
          .getByRole('cell', { name: /^Same household/ })
          .waitFor();
        await capture(page, `console-${lang}-user-detail`);
        await page.goto('/console/swap');
        await page
          .getByRole('button', { name: ct(lang, 'common.edit') })
          .first()
          .click();
        await page.getByRole('dialog').waitFor();
        await capture(page, `console-${lang}-swap-edit`);
      } finally {
        await context.close();
      }
      // The sign-in may wait up to one 30 s step for an unused authenticator code (wallet-support.ts).
    },
    240_000,
  );
});
