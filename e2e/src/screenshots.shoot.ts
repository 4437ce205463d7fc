import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, KEYS, LANGS, type Lang, newPhone, type TestUser } from './app';
import { REPO_ROOT } from './harness';

/**
 * Captures the main screens into docs/screenshots, in both languages and in dark mode:
 * `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts` (or `npm run screenshots
 * -w @coffer/e2e`). SCREENSHOTS_DIR writes elsewhere.
 */
const outDir = process.env.SCREENSHOTS_DIR ?? join(REPO_ROOT, 'docs/screenshots');
mkdirSync(outDir, { recursive: true });

async function shoot(page: Page, path: string, ready: string, file: string) {
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.locator(ready).first().waitFor();
  // Let toasts and the progress bar finish before the picture.
  await page.locator('.adm-toast-main').waitFor({ state: 'detached' });
  await page.locator('#nprogress').waitFor({ state: 'detached' });
  const target = join(outDir, `${file}.png`);
  await page.screenshot({ path: target });
  expect(statSync(target).size, file).toBeGreaterThan(10_000);
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
});
