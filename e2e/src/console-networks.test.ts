import type { AdminNetwork } from '@coffer/contract/network-admin';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, type Lang } from './app';
import { call, must, operatorToken } from './wallet-support';
import { ct, openConsoleAs } from './console-support';

/** The console's Networks page (docs/decisions/041): edit, confirm before -> after, refusals, in both languages. */

async function desktop(browser: Browser, lang: Lang): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: lang,
    baseURL: baseURL(),
    storageState: { cookies: [], origins: [{ origin: baseURL(), localStorage: [{ name: 'coffer.console.language', value: lang }] }] },
  });
}

async function openNetworks(page: Page, lang: Lang) {
  await openConsoleAs(page, lang);
  await page.getByRole('menuitem', { name: ct(lang, 'nav.networks') }).click();
  await page.getByRole('heading', { name: ct(lang, 'nav.networks') }).waitFor();
}

describe('console: networks', () => {
  let browser: Browser;
  let token: string;
  let eth: AdminNetwork;

  beforeAll(async () => {
    browser = await connectBrowser();
    token = await operatorToken();
    eth = (await must<AdminNetwork[]>('/admin/networks', { token })).find((n) => n.code === 'ETH')!;
  });
  afterAll(async () => {
    // Leave the shared server's ETH network as the other test files expect it.
    const { confirmations, minWithdraw, maxWithdraw, dailyWithdrawLimit } = eth;
    await must(`/admin/networks/${eth.id}`, {
      token,
      body: { changes: { confirmations, minWithdraw, maxWithdraw, dailyWithdrawLimit, explorerTxUrl: null }, reason: 'e2e: restore' },
    });
    await browser?.close();
  });

  const cases: [Lang, number, string][] = [
    ['zh-CN', 4, '0.003'],
    ['en-US', 5, '1234.5'],
  ];
  for (const [lang, confirmations, minWithdraw] of cases) {
    it(`${lang}: edits a network, confirms the change before -> after with a reason, and it is in effect at once`, async () => {
      const context = await desktop(browser, lang);
      try {
        const page = await context.newPage();
        await openNetworks(page, lang);
        const before = (await must<AdminNetwork[]>('/admin/networks', { token })).find((n) => n.id === eth.id)!;
        const name = ct(lang, 'networks.edit', { network: `ETH · ${eth.name}` });
        await page.getByRole('button', { name }).click();
        const dialog = page.getByRole('dialog', { name });
        await dialog.getByLabel(ct(lang, 'networks.field.confirmations')).fill(String(confirmations));
        await dialog.getByLabel(`${ct(lang, 'networks.field.minWithdraw')} (ETH)`).fill(minWithdraw);
        if (lang === 'en-US') {
          // A minimum above the old maximum: the maximum and the daily limit rise with it.
          await dialog.getByLabel(`${ct(lang, 'networks.field.maxWithdraw')} (ETH)`).fill('2000');
          await dialog.getByLabel(`${ct(lang, 'networks.field.dailyWithdrawLimit')} (ETH)`).fill('2000');
          // The explorer's transaction page, for the phone app's record details: it must name {tx}.
          const explorerTx = dialog.getByLabel(ct(lang, 'networks.field.explorerTxUrl'));
          await explorerTx.fill('https://etherscan.io/tx/');
          await dialog.getByText(ct(lang, 'networks.badUrl', { placeholder: '{tx}' })).waitFor();
          await explorerTx.fill('https://etherscan.io/tx/{tx}');
        }
        // No reason: the form says so and stays on the first step.
        await dialog.getByRole('button', { name: ct(lang, 'networks.review') }).click();
        await dialog.getByText(ct(lang, 'validation.required')).first().waitFor();
        await dialog.getByLabel(ct(lang, 'common.reason')).fill(`e2e ${lang}: deeper`);
        await dialog.getByRole('button', { name: ct(lang, 'networks.review') }).click();

        await expect.poll(() => dialog.getByTestId('change-confirmations').innerText()).toBe(`${before.confirmations} → ${confirmations}`);
        const minText = await dialog.getByTestId('change-minWithdraw').innerText();
        expect(minText).toBe(`${before.minWithdraw} ETH → ${lang === 'en-US' ? '1,234.5' : minWithdraw} ETH`);
        expect(await dialog.getByTestId('change-reason').innerText()).toBe(`e2e ${lang}: deeper`);
        if (lang === 'en-US') {
          expect(await dialog.getByTestId('change-explorerTxUrl').innerText()).toBe(
            `${ct(lang, 'networks.none')} → https://etherscan.io/tx/{tx}`,
          );
        }
        await dialog.getByRole('button', { name: ct(lang, 'networks.confirmChange') }).click();
        await page.getByText(ct(lang, 'common.saved')).waitFor();
        await dialog.waitFor({ state: 'hidden' });

        // In effect at once: the public network list says so, without a restart.
        const onchain =
          await call<{ id: number; confirmations: number; minWithdraw: string; explorerTxUrl: string | null }[]>('/currency/onchain');
        const pub = onchain.data!.find((n) => n.id === eth.id)!;
        expect(pub).toMatchObject({ confirmations, minWithdraw, explorerTxUrl: lang === 'en-US' ? 'https://etherscan.io/tx/{tx}' : null });
        const row = page.getByRole('row').filter({ hasText: `ETH · ${eth.name}` });
        await row.getByRole('cell', { name: String(confirmations), exact: true }).waitFor();

        if (lang === 'en-US') {
          await page.getByRole('button', { name }).click();
          await dialog.getByLabel(`${ct(lang, 'networks.field.maxWithdraw')} (ETH)`).fill('1');
          await dialog.getByLabel(ct(lang, 'common.reason')).fill('e2e: too low');
          await dialog.getByRole('button', { name: ct(lang, 'networks.review') }).click();
          await dialog.getByRole('button', { name: ct(lang, 'networks.confirmChange') }).click();
          await page.getByText('Invalid network setting: maxWithdraw').waitFor();
          await dialog.getByRole('button', { name: ct(lang, 'networks.back') }).click();
          await dialog.getByLabel(`${ct(lang, 'networks.field.maxWithdraw')} (ETH)`).waitFor();
        }
      } finally {
        await context.close();
      }
    });
  }
});
