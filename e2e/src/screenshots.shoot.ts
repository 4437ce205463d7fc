import type { Network } from '@coffer/contract/chain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, KEYS, LANGS, type Lang, mailDir, newPhone, type TestUser, text } from './app';
import { waitForCode } from './mailbox';
import { createBanner, createLiveActivity, createNotice, gradientPng, uidOf, uploadImage } from './content-support';
import { apiSwap, fund, must, openPage, typeAmount } from './wallet-support';
import { capture, shotPhone } from './shoot-support';

/**
 * Captures the main screens into docs/screenshots, in both languages and in dark mode:
 * `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts` (or `npm run screenshots
 * -w @coffer/e2e`). SCREENSHOTS_DIR writes elsewhere.
 */
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
  const context = await shotPhone(browser, lang, user.token, theme);
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

interface ContentScene {
  detailBannerId: number;
  activityId: number;
  noticeId: number;
  helpArticleId: number;
}

const RANKING_PLAYERS = [
  { zh: '周一鸣', en: 'Jordan Lee', volume: '880', avatar: 'preset:3' },
  { zh: '陈若溪', en: 'Priya Nair', volume: '640.5', avatar: 'preset:5' },
  { zh: '王可', en: 'Marco Rossi', volume: '415', avatar: 'preset:2' },
  { zh: '李想', en: 'Sofia Alves', volume: '120', avatar: 'preset:7' },
];

/**
 * Banners (pictures drawn here), a live activity with a few players, notices and the starter
 * help articles, set up once through the operators' API for the content screenshots.
 */
async function seedContent(members: TestUser[]): Promise<ContentScene> {
  const picture = (from: [number, number, number], to: [number, number, number]) => uploadImage(gradientPng(750, 375, from, to));
  const activity = await createLiveActivity({ titleZh: '兑换冲榜赛 · 第 1 期', titleEn: 'Swap Sprint · Round 1' }, [
    { rankFrom: 1, rankTo: 1, amount: '500' },
    { rankFrom: 2, rankTo: 3, amount: '150' },
    { rankFrom: 4, rankTo: 10, amount: '20' },
  ]);
  const detail = await createBanner({
    titleZh: '新用户指南：三步完成首次充值',
    titleEn: 'New here? Your first top-up in three steps',
    bodyZh:
      '## 三步完成\n\n1. 打开**充值**页，选择币种与网络。\n2. 复制地址或扫描二维码转入。\n3. 到达所需确认数后即到账。\n\n更多问题请看[帮助中心](/helpCenter)。',
    bodyEn:
      '## Three steps\n\n1. Open **Top up** and pick a currency and network.\n2. Copy the address or scan the QR code.\n3. The deposit is credited once it has its confirmations.\n\nMore in the [help center](/helpCenter).',
    imageUrl: await picture([0, 150, 148], [16, 60, 120]),
    link: { type: 'detail' },
    sortOrder: 0,
  });
  await createBanner({
    titleZh: '兑换冲榜赛开赛，前十名有奖',
    titleEn: 'Swap Sprint is live: prizes for the top ten',
    imageUrl: await picture([255, 176, 59], [214, 64, 99]),
    link: { type: 'ranking', activityId: activity.id },
    sortOrder: 1,
  });
  for (const [index, player] of RANKING_PLAYERS.entries()) {
    const user = await createUser('en-US', index % 2 ? player.zh : player.en);
    await must('/updateUserInfo', { token: user.token, body: { avatar: player.avatar } });
    await fund(user.email, '1000');
    await apiSwap(user, 'USDT', 'ETH', player.volume);
  }
  for (const [index, member] of members.entries()) {
    await fund(member.email, '500');
    await apiSwap(member, 'USDT', 'ETH', index === 0 ? '260' : '95');
  }
  await createNotice({
    titleZh: '系统维护通知：11 月 30 日 02:00–02:30',
    titleEn: 'Scheduled maintenance: 30 Nov 02:00–02:30 UTC',
    bodyZh: '维护期间**充值到账会延后**，提现暂停，其余功能不受影响。',
    bodyEn: 'During the window **deposits are credited late** and withdrawals pause; everything else keeps working.',
  });
  await createNotice({
    titleZh: '新增 ETH 网络充值',
    titleEn: 'ETH deposits now supported',
    bodyZh: '现在可以通过 ETH 网络充值。',
    bodyEn: 'You can now top up over the ETH network.',
  });
  const notice = await createNotice({
    titleZh: '兑换冲榜赛规则更新',
    titleEn: 'Swap Sprint rules updated',
    bodyZh: '## 更新内容\n\n- 排名按活动期内**兑换量（USDT）**计算。\n- 成绩相同时，先达到者排名靠前。\n\n[查看排行](/banner/ranking)',
    bodyEn:
      '## What changed\n\n- Ranks follow **swap volume (USDT)** during the activity.\n- On equal scores, whoever got there first ranks higher.\n\n[See the ranking](/banner/ranking)',
  });
  for (const member of members) {
    await createNotice({
      uid: await uidOf(member),
      titleZh: '你的提现已完成',
      titleEn: 'Your withdrawal is complete',
      bodyZh: '0.25 ETH 已发送到你的地址。',
      bodyEn: '0.25 ETH has been sent to your address.',
    });
  }
  const help = await must<{ topics: { articles: { id: number }[] }[] }>('/help/list');
  return { detailBannerId: detail.id, activityId: activity.id, noticeId: notice.id, helpArticleId: help.topics[0]!.articles[0]!.id };
}

/** Home with its banners, a banner, the ranking, the help center and the notice center. */
async function shootContent(browser: Browser, lang: Lang, user: TestUser, scene: ContentScene, prefix: string, theme?: 'dark') {
  const themed = theme ? { localStorage: { [KEYS.theme]: theme } } : {};
  const guest = await newPhone(browser, lang, { deviceScaleFactor: 2, ...themed });
  const guestPage = await openPage(guest);
  try {
    await shoot(guestPage, '/', '[data-testid="banner-carousel"] img', `${prefix}-home-banners`);
    await shoot(guestPage, `/banner/detail?id=${scene.detailBannerId}`, '[data-testid="banner-body"]', `${prefix}-banner-detail`);
  } finally {
    await guest.close();
  }
  const member = await newPhone(browser, lang, { token: user.token, deviceScaleFactor: 2, ...themed });
  const page = await openPage(member);
  try {
    await shoot(page, `/banner/ranking?id=${scene.activityId}`, '[data-testid="ranking-mine"]', `${prefix}-ranking`);
    await shoot(page, '/helpCenter', '[data-testid^="help-topic-"]', `${prefix}-help-center`);
    await shoot(page, `/helpCenter?id=${scene.helpArticleId}`, '[data-testid="help-article-body"]', `${prefix}-help-article`);
    await shoot(page, `/noticeCenter/detail?id=${scene.noticeId}`, '[data-testid="notice-body"]', `${prefix}-notice-detail`);
    await shoot(page, '/noticeCenter', '[data-testid^="notice-row-"]', `${prefix}-notice-center`);
  } finally {
    await member.close();
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

  describe('content screens', () => {
    let scene: ContentScene;

    beforeAll(async () => {
      scene = await seedContent([...users.values()]);
    }, 180_000);

    it.each(LANGS)('content screens in %s', async (lang) => {
      await shootContent(browser, lang, users.get(lang)!, scene, lang);
    });

    it('content screens in the dark theme', async () => {
      await shootContent(browser, 'zh-CN', users.get('zh-CN')!, scene, 'dark-zh-CN', 'dark');
      await shootContent(browser, 'en-US', users.get('en-US')!, scene, 'dark-en-US', 'dark');
    });
  });
});
