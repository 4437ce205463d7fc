import { randomUUID } from 'node:crypto';
import type { Network, WithdrawRecord } from '@coffer/contract/chain';
import { errorMessages } from '@coffer/contract/errors';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, LANGS, type Lang, type TestUser } from './app';
import { E2E_OPERATOR_EMAIL, E2E_SECOND_OPERATOR_EMAIL } from './harness';
import { fund, must, operatorToken, signInOperator, apiWithdrawEth } from './wallet-support';
import { ct, openConsoleAs } from './console-support';

/**
 * The withdrawal review queue as an operator uses it (docs/decisions/044): the destination in
 * full on the row, a summary before approve or reject commits, and four eyes above the
 * network's second threshold with two operators.
 */

const CONSOLE_LANGUAGE_KEY = 'coffer.console.language';

async function desktop(browser: Browser, lang: Lang): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: lang,
    baseURL: baseURL(),
    storageState: { cookies: [], origins: [{ origin: baseURL(), localStorage: [{ name: CONSOLE_LANGUAGE_KEY, value: lang }] }] },
  });
}

async function openQueue(page: Page, lang: Lang, email: string) {
  await openConsoleAs(page, lang, email);
  await page.getByRole('menuitem', { name: ct(lang, 'nav.withdrawals') }).click();
  await page.getByRole('heading', { name: ct(lang, 'nav.withdrawals') }).waitFor();
}

/** A fresh user (one code mail each) withdrawing `amount` ETH to `address`: above the review threshold, it waits. */
async function inReview(lang: Lang, amount: string, address: string): Promise<{ user: TestUser; id: number; address: string }> {
  const user = await createUser(lang);
  await fund(user.email, '100', 'ETH');
  const w = await apiWithdrawEth(user, amount, address);
  expect(w.status).toBe('review');
  // the address as stored and shown: checksummed
  return { user, id: w.id, address: w.address };
}

const statusOf = async (user: TestUser, id: number) => (await must<WithdrawRecord>(`/withdraw/detail/${id}`, { token: user.token })).status;

/** Opens approve or reject on a row and checks the summary before anything is sent. */
async function decide(
  page: Page,
  lang: Lang,
  opts: { id: number; decision: 'approve' | 'reject'; user: TestUser; address: string; amount: string },
) {
  const title = ct(lang, opts.decision === 'approve' ? 'withdrawals.approveTitle' : 'withdrawals.rejectTitle', { id: opts.id });
  await page.getByRole('button', { name: title }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByTestId('money-confirm').waitFor();
  expect(await dialog.getByTestId('money-destination').textContent()).toContain(opts.address);
  expect(await dialog.getByTestId('money-user').textContent()).toContain(opts.user.email);
  expect(await dialog.getByTestId('money-amount').textContent()).toMatch(new RegExp(`^${opts.amount}(\\.0+)? ETH$`));
  expect(await dialog.getByTestId('money-fee').textContent()).toMatch(/\d ETH/);
  expect(await dialog.getByTestId('money-network').textContent()).toBe('Ethereum (local)');
  // the reason is asked for: OK without one sends nothing
  const ok = dialog.getByRole('button', {
    name: ct(lang, opts.decision === 'approve' ? 'withdrawals.confirmApprove' : 'withdrawals.confirmReject'),
  });
  await ok.click();
  await dialog.locator('.ant-form-item-explain-error').first().waitFor();
  expect(await statusOf(opts.user, opts.id)).toBe('review');
  await dialog.getByLabel(ct(lang, 'common.reason')).fill(`e2e ${lang}: ${opts.decision}`);
  await ok.click();
  await dialog.waitFor({ state: 'detached' });
}

describe('console: withdrawal review', () => {
  let browser: Browser;
  let ethId: number;

  beforeAll(async () => {
    browser = await connectBrowser();
    ethId = (await must<Network[]>('/currency/onchain')).find((n) => n.code === 'ETH')!.id;
    await operatorToken();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(LANGS)('%s: approves one and rejects one from the queue, the destination on the row and in the summary', async (lang) => {
    const a = await inReview(lang, '51', `0x${randomUUID().replace(/-/g, '').slice(0, 8)}${'1'.repeat(32)}`);
    const r = await inReview(lang, '52', `0x${randomUUID().replace(/-/g, '').slice(0, 8)}${'2'.repeat(32)}`);
    const [toApprove, toReject] = [a.address, r.address];
    const context = await desktop(browser, lang);
    try {
      const page = await context.newPage();
      await openQueue(page, lang, E2E_OPERATOR_EMAIL);
      // the row shows the destination in full, the user's e-mail and the network by name
      const row = page.locator('tr', { has: page.getByTestId('destination').getByText(toApprove, { exact: true }) });
      await row.waitFor();
      expect(await row.textContent()).toContain(a.user.email);
      expect(await row.textContent()).toContain('Ethereum (local)');
      // the facts open under it: a fresh user, a first withdrawal to this address
      await page.getByTestId(`facts-${a.id}`).getByText(ct(lang, 'withdrawals.firstYes')).waitFor();

      await decide(page, lang, { id: a.id, decision: 'approve', user: a.user, address: toApprove, amount: '51' });
      await expect.poll(() => statusOf(a.user, a.id)).not.toBe('review');
      await decide(page, lang, { id: r.id, decision: 'reject', user: r.user, address: toReject, amount: '52' });
      await expect.poll(() => statusOf(r.user, r.id)).toBe('rejected');
      await page.getByTestId('destination').getByText(toReject, { exact: true }).waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  it('four eyes: above the second threshold the first operator approves, is refused a second time, a second operator queues it', async () => {
    const token = await operatorToken();
    await signInOperator(E2E_SECOND_OPERATOR_EMAIL);
    const setThreshold = (value: string | null) =>
      must(`/admin/networks/${ethId}`, { token, body: { changes: { secondApprovalAbove: value }, reason: 'e2e: four eyes' } });
    await setThreshold('55');
    const w = await inReview('zh-CN', '56', `0x${randomUUID().replace(/-/g, '').slice(0, 8)}${'3'.repeat(32)}`);
    const address = w.address;
    const first = await desktop(browser, 'zh-CN');
    const second = await desktop(browser, 'en-US');
    try {
      const page = await first.newPage();
      await openQueue(page, 'zh-CN', E2E_OPERATOR_EMAIL);
      await decide(page, 'zh-CN', { id: w.id, decision: 'approve', user: w.user, address, amount: '56' });
      await page.getByText(ct('zh-CN', 'withdrawals.firstApprovalDone')).waitFor();
      const row = page.locator('tr', { has: page.getByTestId('destination').getByText(address, { exact: true }) });
      await row.getByText(ct('zh-CN', 'withdrawals.waitingSecond', { by: E2E_OPERATOR_EMAIL })).waitFor();
      expect(await statusOf(w.user, w.id)).toBe('review');
      // the same operator again: refused (3041), still in review
      await page.getByRole('button', { name: ct('zh-CN', 'withdrawals.approveTitle', { id: w.id }) }).click();
      const again = page.getByRole('dialog', { name: ct('zh-CN', 'withdrawals.approveTitle', { id: w.id }) });
      await again.getByLabel(ct('zh-CN', 'common.reason')).fill('e2e: 再次通过');
      await again.getByRole('button', { name: ct('zh-CN', 'withdrawals.confirmApprove') }).click();
      await page.getByText(errorMessages['zh-CN'][3041]).waitFor();
      expect(await statusOf(w.user, w.id)).toBe('review');

      const other = await second.newPage();
      await openQueue(other, 'en-US', E2E_SECOND_OPERATOR_EMAIL);
      const theirRow = other.locator('tr', { has: other.getByTestId('destination').getByText(address, { exact: true }) });
      await theirRow.getByText(ct('en-US', 'withdrawals.waitingSecond', { by: E2E_OPERATOR_EMAIL })).waitFor();
      await decide(other, 'en-US', { id: w.id, decision: 'approve', user: w.user, address, amount: '56' });
      await expect.poll(() => statusOf(w.user, w.id)).not.toBe('review');
      const trail = await must<{ list: { action: string; actor: string }[] }>(`/admin/audit-trail?targetType=withdrawal&targetId=${w.id}`, {
        token,
      });
      expect(trail.list.map((r) => [r.action, r.actor]).reverse()).toEqual([
        ['withdrawal.approve.first', E2E_OPERATOR_EMAIL],
        ['withdrawal.approve', E2E_SECOND_OPERATOR_EMAIL],
      ]);
    } finally {
      await first.close();
      await second.close();
      // other files on this server expect one operator to decide
      await setThreshold(null);
    }
  });
});
