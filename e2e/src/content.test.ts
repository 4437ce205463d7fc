import type { ActivityUserRank } from '@coffer/contract/activity';
import type { AdminBanner, AdminHelpArticle } from '@coffer/contract/content';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, newPhone, t, text, waitForPath } from './app';
import {
  createBanner,
  createHelpArticle,
  createHelpTopic,
  createLiveActivity,
  createNotice,
  gradientPng,
  retireBanner,
  uidOf,
  uploadImage,
} from './content-support';
import { apiSwap, fund, must, openPage } from './wallet-support';

/** A decimal string as the ranking shows scores: trailing zeros dropped, at most 2 decimals (cut). */
function shownScore(value: string): string {
  const [int = '0', frac = ''] = value.split('.');
  const cut = frac.slice(0, 2).replace(/0+$/, '');
  return `${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${cut ? `.${cut}` : ''}`;
}

const unread = (page: Page, id: number) => page.getByTestId(`notice-row-${id}`).getAttribute('data-unread');

describe('content pages: banners, notices, help, ranking', () => {
  let browser: Browser;
  const stamp = Date.now().toString(36);
  const banners: AdminBanner[] = [];

  beforeAll(async () => {
    browser = await connectBrowser();
  });

  afterAll(async () => {
    // Other files look at home too: the carousel leaves with this file.
    for (const banner of banners) await retireBanner(banner.id).catch(() => undefined);
    await browser?.close();
  });

  it('home carousel with several banners: it moves on by itself, a finger swipes it, its dots follow and show a slide', async () => {
    const lang: Lang = 'en-US';
    const imageUrl = await uploadImage(gradientPng(150, 75, [240, 160, 40], [200, 60, 40]));
    for (const n of [1, 2]) {
      banners.push(
        await createBanner({
          titleZh: `轮播 ${n} ${stamp}`,
          titleEn: `Slide ${n} ${stamp}`,
          bodyZh: '正文',
          bodyEn: 'Body',
          imageUrl,
          link: { type: 'detail' },
        }),
      );
    }
    const context = await newPhone(browser, lang);
    const page = await openPage(context);
    try {
      // The test browser asks for reduced motion, which turns autoplay off.
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      await page.goto('/');
      const carousel = page.getByRole('region', { name: t(lang, 'home.banners') });
      await carousel.getByRole('link', { name: `Slide 2 ${stamp}` }).waitFor({ state: 'attached' });
      const slides = await carousel.getByRole('link').count();
      expect(slides).toBeGreaterThanOrEqual(2);
      const dots = carousel.locator('.banner-dot');
      expect(await dots.count()).toBe(slides);
      const currentDot = () => dots.evaluateAll((all) => all.findIndex((d) => d.getAttribute('aria-current') === 'true'));
      expect(await currentDot()).toBe(0);
      // Autoplay: the next slide within one interval (5 s) and a bit.
      await page.waitForFunction(() => (document.querySelector('.banner-track')?.scrollLeft ?? 0) > 0, null, { timeout: 8_000 });
      await expect.poll(currentDot).toBe(1);
      // A finger swipes back to the first slide (touch events, as a phone sends them): the
      // dots follow, and autoplay leaves it there for a while.
      const box = (await page.locator('.banner-track').boundingBox())!;
      const y = box.y + box.height / 2;
      const cdp = await context.newCDPSession(page);
      const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
        cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
      await touch('touchStart', box.x + 40);
      for (let step = 1; step <= 10; step++) await touch('touchMove', box.x + 40 + (step * (box.width - 80)) / 10);
      await touch('touchEnd', box.x + box.width - 40);
      await expect.poll(currentDot).toBe(0);
      // The dots are buttons: one shows its slide.
      await carousel.getByRole('button', { name: 'Show highlight 2 of', exact: false }).click();
      await expect.poll(currentDot).toBe(1);
    } finally {
      await context.close();
      // The next test wants its banner first.
      for (const banner of banners.splice(0)) await retireBanner(banner.id);
    }
  });

  it('home carousel shows a live banner and opens its detail; an unknown banner is a clear not-found', async () => {
    const lang: Lang = 'zh-CN';
    const imageUrl = await uploadImage(gradientPng(150, 75, [0, 171, 169], [11, 95, 122]));
    const banner = await createBanner({
      titleZh: `新人礼遇 ${stamp}`,
      titleEn: `Welcome gift ${stamp}`,
      bodyZh: '**首次充值**即可领取体验金。',
      bodyEn: 'Your **first top-up** earns a welcome bonus.',
      imageUrl,
      link: { type: 'detail' },
    });
    banners.push(banner);

    const context = await newPhone(browser, lang);
    const page = await openPage(context);
    try {
      await page.goto('/');
      const carousel = page.getByRole('region', { name: t(lang, 'home.banners') });
      const slide = carousel.getByRole('link', { name: banner.titleZh });
      await slide.waitFor();
      const image = slide.getByRole('img', { name: banner.titleZh });
      expect(await image.getAttribute('width')).toBe('750');
      // The first slide's image loads at once, the others lazily (another file's banner may be
      // live at the same time, and first).
      const first = (await carousel.getByRole('link').first().getAttribute('aria-label')) === banner.titleZh;
      expect(await image.getAttribute('loading')).toBe(first ? 'eager' : 'lazy');
      await slide.click();

      await waitForPath(page, `/banner/detail?id=${banner.id}`);
      await page.getByRole('heading', { name: banner.titleZh }).waitFor();
      expect(await text(page.getByTestId('banner-body').locator('strong'))).toBe('首次充值');
      expect(await page.getByRole('img', { name: banner.titleZh }).getAttribute('src')).toBe(imageUrl);
      // A detail banner has no ranking to lead to.
      expect(await page.getByRole('link', { name: t(lang, 'banner.viewRanking') }).count()).toBe(0);

      await page.goto('/banner/detail?id=999999');
      await page.getByText(t(lang, 'banner.notFound')).waitFor();
      await page.getByRole('link', { name: t(lang, 'pages.goHome') }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('notices: the badge counts unread ones, opening one reads it, all read clears it, personal ones stay personal', async () => {
    const lang: Lang = 'en-US';
    const [alice, bob] = await Promise.all([createUser(lang, 'Alice'), createUser(lang, 'Bob')]);
    const [aliceUid, bobUid] = await Promise.all([uidOf(alice), uidOf(bob)]);
    const general = await createNotice({ titleZh: `维护通知 ${stamp}`, titleEn: `Maintenance ${stamp}`, bodyEn: 'A short pause.' });
    const personal = await createNotice({
      uid: aliceUid,
      titleZh: `你的奖励 ${stamp}`,
      titleEn: `Your prize ${stamp}`,
      bodyEn: 'You won **10 USDT**.',
    });
    const bobsOwn = await createNotice({ uid: bobUid, titleZh: `仅限 Bob ${stamp}`, titleEn: `For Bob only ${stamp}` });
    const before = (await must<{ unreadCount: number }>('/notice/unread-count', { token: alice.token })).unreadCount;
    expect(before).toBeGreaterThanOrEqual(2);

    const context = await newPhone(browser, lang, { token: alice.token });
    const page = await openPage(context);
    try {
      await page.goto('/profile');
      const badge = page.getByTestId('profile-notices-badge');
      await expect.poll(() => text(badge)).toBe(String(before));
      await page.getByText(t(lang, 'notice.unreadCount', { count: before })).waitFor({ state: 'attached' });

      await page.getByTestId('profile-notices').click();
      await waitForPath(page, '/noticeCenter');
      await page.getByText(personal.titleEn).waitFor();
      expect(await unread(page, personal.id)).toBe('true');
      expect(await unread(page, general.id)).toBe('true');
      expect(await page.getByText(bobsOwn.titleEn).count()).toBe(0);

      await page.getByText(personal.titleEn).click();
      await waitForPath(page, `/noticeCenter/detail?id=${personal.id}`);
      await page.getByRole('heading', { name: personal.titleEn }).waitFor();
      expect(await text(page.getByTestId('notice-body').locator('strong'))).toBe('10 USDT');

      await page.goBack();
      await expect.poll(() => unread(page, personal.id)).toBe('false');
      expect(await unread(page, general.id)).toBe('true');
      await page.goto('/profile');
      await expect.poll(() => text(badge)).toBe(String(before - 1));

      await page.goto('/noticeCenter');
      await page.getByRole('button', { name: t(lang, 'notice.readAll') }).click();
      await expect.poll(() => unread(page, general.id)).toBe('false');
      await page.goto('/profile');
      await page.getByTestId('profile-notices').waitFor();
      await expect.poll(() => badge.count()).toBe(0);
    } finally {
      await context.close();
    }

    // Bob sees neither Alice's notice in his list nor its page.
    const bobContext = await newPhone(browser, lang, { token: bob.token });
    const bobPage = await openPage(bobContext);
    try {
      await bobPage.goto('/noticeCenter');
      await bobPage.getByText(bobsOwn.titleEn).waitFor();
      expect(await bobPage.getByText(personal.titleEn).count()).toBe(0);
      await bobPage.goto(`/noticeCenter/detail?id=${personal.id}`);
      await bobPage.getByText(t(lang, 'notice.notFound')).waitFor();
    } finally {
      await bobContext.close();
    }
  });

  describe('help search', () => {
    let wanted: AdminHelpArticle;
    let other: AdminHelpArticle;

    beforeAll(async () => {
      const topic = await createHelpTopic({ key: `e2e-${stamp}`, titleZh: `账户 ${stamp}`, titleEn: `Account ${stamp}` });
      wanted = await createHelpArticle({
        topicId: topic.id,
        titleZh: `如何更换登录邮箱 ${stamp}`,
        titleEn: `Changing your sign-in e-mail ${stamp}`,
        bodyZh: '在**设置**里更换。',
        bodyEn: 'Change it in **Settings**.',
      });
      other = await createHelpArticle({
        topicId: topic.id,
        titleZh: `提现多久到账 ${stamp}`,
        titleEn: `How long withdrawals take ${stamp}`,
        bodyZh: '通常几分钟。',
        bodyEn: 'Usually minutes.',
      });
    });

    it.each(LANGS)('finds an article by its title and opens it (%s)', async (lang) => {
      const user = await createUser(lang);
      const context = await newPhone(browser, lang, { token: user.token });
      const page = await openPage(context);
      const title = (article: AdminHelpArticle) => (lang === 'zh-CN' ? article.titleZh : article.titleEn);
      try {
        await page.goto('/helpCenter');
        await page.getByRole('link', { name: title(other) }).waitFor();
        const search = page.getByLabel(t(lang, 'help.searchLabel'));
        await search.fill(lang === 'zh-CN' ? `更换登录邮箱 ${stamp}` : `SIGN-IN E-MAIL ${stamp}`);
        await expect.poll(() => page.getByRole('link', { name: title(other) }).count()).toBe(0);
        await page.getByRole('link', { name: title(wanted) }).click();

        await waitForPath(page, `/helpCenter?id=${wanted.id}`);
        await page.getByRole('heading', { name: title(wanted) }).waitFor();
        expect(await text(page.getByTestId('help-article-body').locator('strong'))).toBe(lang === 'zh-CN' ? '设置' : 'Settings');

        // Back finds the search as it was.
        await page.goBack();
        await page.getByRole('link', { name: title(wanted) }).waitFor();
        expect(await page.getByLabel(t(lang, 'help.searchLabel')).inputValue()).toContain(stamp);
        await page.getByLabel(t(lang, 'help.searchLabel')).fill(`no such title ${stamp}`);
        await page.getByTestId('help-empty').waitFor();
      } finally {
        await context.close();
      }
    });
  });

  it('ranking: signed out shows the board and a sign-in prompt; signed in pins my row with rank and gap', async () => {
    const activity = await createLiveActivity({ titleZh: `兑换冲榜赛 ${stamp}`, titleEn: `Swap sprint ${stamp}` }, [
      { rankFrom: 1, rankTo: 1, amount: '100' },
      { rankFrom: 2, rankTo: 3, amount: '20' },
    ]);
    const [leader, runner] = await Promise.all([createUser('en-US', 'Leader'), createUser('en-US', 'Runner')]);
    await Promise.all([fund(leader.email, '200'), fund(runner.email, '200')]);
    await apiSwap(leader, 'USDT', 'ETH', '50');
    await apiSwap(runner, 'USDT', 'ETH', '30');
    const mine = await must<ActivityUserRank>(`/activity/getUserRank?id=${activity.id}`, { token: runner.token });
    expect(mine.rank).toBe(2);
    expect(mine.gapToNextPrize).not.toBeNull();

    const banner = await createBanner({
      titleZh: `冲榜赢奖 ${stamp}`,
      titleEn: `Climb and win ${stamp}`,
      imageUrl: await uploadImage(gradientPng(150, 75, [255, 170, 60], [220, 60, 90])),
      link: { type: 'ranking', activityId: activity.id },
      sortOrder: 1,
    });
    banners.push(banner);

    // Signed out (zh-CN): from the banner's page to its ranking.
    const guest = await newPhone(browser, 'zh-CN');
    const page = await openPage(guest);
    try {
      await page.goto(`/banner/detail?id=${banner.id}`);
      await page.getByRole('link', { name: t('zh-CN', 'banner.viewRanking') }).click();
      await waitForPath(page, `/banner/ranking?id=${activity.id}`);
      await page.getByRole('heading', { name: activity.titleZh }).waitFor();
      expect(await text(page.getByTestId('ranking-status'))).toBe(t('zh-CN', 'ranking.status.live'));
      expect(await text(page.getByTestId('ranking-countdown'))).toContain(t('zh-CN', 'ranking.endsIn'));
      const board = page.getByTestId('ranking-board');
      await expect.poll(() => board.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
      expect(await text(page.getByTestId('ranking-row-1'))).toContain('50');
      expect(await text(page.getByTestId('ranking-prizes'))).toContain(t('zh-CN', 'ranking.rankRange', { from: 2, to: 3 }));
      await page.getByText(t('zh-CN', 'ranking.signInPrompt')).waitFor();
      await page.getByRole('link', { name: t('zh-CN', 'ranking.signIn') }).waitFor();
      expect(await page.getByRole('region', { name: t('zh-CN', 'ranking.mine') }).count()).toBe(0);
      await page.getByRole('heading', { name: t('zh-CN', 'ranking.rules') }).waitFor();
    } finally {
      await guest.close();
    }

    // Signed in (en-US): my row at the bottom of the screen.
    const member = await newPhone(browser, 'en-US', { token: runner.token });
    const memberPage = await openPage(member);
    try {
      await memberPage.goto(`/banner/ranking?id=${activity.id}`);
      const row = memberPage.getByRole('region', { name: t('en-US', 'ranking.mine') });
      await row.getByText(t('en-US', 'ranking.rankOne', { rank: 2 })).waitFor();
      expect(await text(row.getByTestId('ranking-mine-gap'))).toBe(
        t('en-US', 'ranking.gap', { amount: shownScore(mine.gapToNextPrize!), rank: mine.nextPrizeRank ?? 1 }),
      );
      expect(await text(row.getByTestId('ranking-mine-score'))).toContain(shownScore(mine.score));
      expect(await memberPage.getByTestId('ranking-row-2').getAttribute('aria-current')).toBe('true');
      expect(await memberPage.getByText(t('en-US', 'ranking.signInPrompt')).count()).toBe(0);
      const inView = await row.evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight + 1);
      expect(inView).toBe(true);
    } finally {
      await member.close();
    }
  });
});
