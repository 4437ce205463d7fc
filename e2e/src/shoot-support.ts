import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { KEYS, LANGS, type Lang, newPhone } from './app';
import { REPO_ROOT } from './harness';

/** Where the screenshot scripts (*.shoot.ts, SCREENSHOTS=1) write: docs/screenshots unless SCREENSHOTS_DIR says. */
export const SHOTS_DIR = process.env.SCREENSHOTS_DIR ?? join(REPO_ROOT, 'docs/screenshots');
mkdirSync(SHOTS_DIR, { recursive: true });

export interface CaptureOptions {
  /** The whole page, not only the viewport (the long money pages). */
  fullPage?: boolean;
  /** Wait for toasts to leave first (pages that hide them do not). */
  waitForToasts?: boolean;
}

/** A phone screenshot of a settled page: `<SHOTS_DIR>/<file>.png`. */
export async function capture(page: Page, file: string, { fullPage = false, waitForToasts = true }: CaptureOptions = {}) {
  // Let toasts, the progress bar and loading skeletons finish, and fonts and images load.
  if (waitForToasts) await page.locator('.adm-toast-main').waitFor({ state: 'detached' });
  await page.locator('#nprogress').waitFor({ state: 'detached' });
  await page.locator('.adm-skeleton').first().waitFor({ state: 'detached' });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
  // From the top: the sticky nav bar then sits where it belongs in a full-page picture.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  const target = join(SHOTS_DIR, `${file}.png`);
  await page.screenshot({ path: target, fullPage });
  expect(statSync(target).size, file).toBeGreaterThan(10_000);
}

/** Shoots a set of screens: `<lang>-<name>` in each language, then `dark-<darkLang>-<name>` in the dark theme. */
export type ShootSet = (lang: Lang, prefix: string, theme?: 'dark') => Promise<void>;

/** The three runs of a screen set (both languages, and the dark theme in one), each its own test. */
export function shootInEveryLook(what: string, shoot: ShootSet, darkLang: Lang = 'zh-CN') {
  it.each(LANGS)(`${what} in %s`, async (lang) => {
    await shoot(lang, lang);
  });
  it(`${what} in the dark theme`, async () => {
    await shoot(darkLang, `dark-${darkLang}`, 'dark');
  });
}

/** A signed-in phone for screenshots: twice the pixels, in the dark theme when asked. */
export function shotPhone(browser: Browser, lang: Lang, token: string, theme?: 'dark'): Promise<BrowserContext> {
  return newPhone(browser, lang, {
    token,
    deviceScaleFactor: 2,
    ...(theme ? { localStorage: { [KEYS.theme]: theme } } : {}),
  });
}
