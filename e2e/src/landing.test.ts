import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, LANGS, type Lang, newPhone, pageTitle, rendered, t, text, waitForPath } from './app';

/**
 * Decision 026: the signed-out landing page paints without react-router and fetches it
 * afterwards (apps/web/src/app/landing.tsx). Its links must work before the router is there.
 */

/**
 * The router's files, as index.html lists them for its inline preload, but those the landing
 * route needs too (a chunk both import): index.html preloads them on "/" as the landing's
 * (decision 069).
 */
async function routerFiles(): Promise<string[]> {
  const html = await (await fetch(`${baseURL()}/`)).text();
  const list = (name: string) => {
    const found = new RegExp(`const ${name} = (\\[[^\\]]*\\]);`).exec(html)?.[1];
    if (!found) throw new Error(`index.html names no ${name} files`);
    return JSON.parse(found) as string[];
  };
  const landing = new Set(list('landing'));
  const files = list('router').filter((file) => !landing.has(file));
  expect(files.length).toBeGreaterThan(0);
  return files;
}

describe.each(LANGS)('signed-out landing page (%s)', (lang: Lang) => {
  let browser: Browser;
  let context: BrowserContext;
  let files: string[];

  beforeAll(async () => {
    browser = await connectBrowser();
    files = await routerFiles();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  const fresh = async (): Promise<Page> => {
    await context?.close();
    context = await newPhone(browser, lang);
    return context.newPage();
  };

  const openLanding = async (page: Page) => {
    await page.goto('/');
    await page.getByTestId('home-login').waitFor();
  };

  it('paints without the router, and a click made before it arrives waits for it and opens sign-in', async () => {
    const page = await fresh();
    const held: Route[] = [];
    let release = false;
    await page.route(
      (url) => files.includes(url.pathname),
      (route) => (release ? route.continue() : void held.push(route)),
    );
    await openLanding(page);
    expect(await page.title()).toBe(pageTitle(lang, 'routes.home'));
    expect(await text(page.locator('.adm-tab-bar-item-active'))).toBe(t(lang, 'tabs.home'));
    expect(await page.locator('.adm-tab-bar-item-active').getAttribute('aria-current')).toBe('page');
    // The landing page asks for the router once it has loaded and the browser is idle.
    await expect.poll(() => held.length).toBeGreaterThan(0);

    const entries = await page.evaluate(() => {
      (window as { landingDocument?: boolean }).landingDocument = true;
      return history.length;
    });
    // Any document the page asks for from now on would be a reload instead of the router's work.
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) documents.push(request.url());
    });
    await page.getByTestId('home-login').click();
    await rendered(page);
    // Still the landing page: the click waits for the router instead of reloading the page.
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByTestId('home-login').waitFor();

    release = true;
    for (const route of held.splice(0)) await route.continue();
    await waitForPath(page, '/login');
    await page.getByTestId('login-submit').waitFor();
    expect(await page.title()).toBe(pageTitle(lang, 'routes.login'));
    // One document throughout: the router took over the page, it did not load another.
    expect(documents).toEqual([]);
    expect(await page.evaluate(() => (window as { landingDocument?: boolean }).landingDocument)).toBe(true);
    expect(await page.evaluate(() => history.length)).toBe(entries + 1);
  });

  it('opens sign-in from a click right after the first paint', async () => {
    const page = await fresh();
    await page.goto('/');
    await page.getByTestId('home-login').click();
    await waitForPath(page, '/login');
    await page.getByTestId('login-submit').waitFor();
  });

  it('follows every kind of landing link to the page the router would open', async () => {
    const cases: [string, string][] = [
      ['home-register', '/register'],
      // Protected: the guard sends a signed-out visitor to sign in, and back afterwards.
      ['home-action-charge', `/login?redirect=${encodeURIComponent('/charge')}`],
      ['home-action-swap', '/swap'],
    ];
    for (const [testId, path] of cases) {
      const page = await fresh();
      await page.goto('/');
      await page.getByTestId(testId).click();
      await waitForPath(page, path);
      await page.locator('main.app-main').waitFor();
    }
    const page = await fresh();
    await openLanding(page);
    await page.locator('.adm-tab-bar-item').nth(3).click();
    // The Me tab needs a user: to sign in, with the way back.
    await waitForPath(page, `/login?redirect=${encodeURIComponent('/profile')}`);
  });

  it('keeps the keyboard focus on the tab opened with Enter when the router takes over', async () => {
    const page = await fresh();
    await openLanding(page);
    await page.locator('.adm-tab-bar-item').nth(1).focus();
    await page.keyboard.press('Enter');
    await waitForPath(page, '/swap');
    await expect.poll(() => page.locator('.adm-tab-bar-item-active').getAttribute('href')).toBe('/swap');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('/swap');
  });

  it('goes back to the landing page and forward again after the router took over', async () => {
    const page = await fresh();
    await openLanding(page);
    await page.getByTestId('home-register').click();
    await waitForPath(page, '/register');
    await page.goBack();
    await waitForPath(page, '/');
    await page.getByTestId('home-login').waitFor();
    expect(await page.title()).toBe(pageTitle(lang, 'routes.home'));
    await page.goForward();
    await waitForPath(page, '/register');
    expect(await page.title()).toBe(pageTitle(lang, 'routes.register'));
  });

  it('follows the link as a plain one when the router could not be fetched', async () => {
    const page = await fresh();
    let aborted = 0;
    await page.route(
      (url) => files.includes(url.pathname),
      (route) => {
        if (aborted > 0 && route.request().frame().url().endsWith('/login')) return route.continue();
        aborted += 1;
        return route.abort();
      },
    );
    await openLanding(page);
    // The idle fetch failed; the browser keeps that failure for the document's life, so the
    // click loads /login as a new page, which fetches the router afresh.
    await expect.poll(() => aborted).toBeGreaterThan(0);
    await page.evaluate(() => {
      (window as { landingDocument?: boolean }).landingDocument = true;
    });
    await page.getByTestId('home-login').click();
    await waitForPath(page, '/login');
    await page.getByTestId('login-submit').waitFor();
    expect(await page.evaluate(() => (window as { landingDocument?: boolean }).landingDocument)).toBeUndefined();
    expect(await page.title()).toBe(pageTitle(lang, 'routes.login'));
  });
});
