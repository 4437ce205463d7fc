import type { DepositRecord, Network, WithdrawRecord } from '@coffer/contract/chain';
import type { PageResponse } from '@coffer/contract/common';
import { ErrorCode, errorMessages } from '@coffer/contract/errors';
import type { Balance } from '@coffer/contract/ledger';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, type Lang, mailDir, newPhone, type TestUser, t, text, waitForPath, waitForToast } from './app';
import { waitForCode } from './mailbox';
import { currencyId, fund, must, noPopUp, openPage, typeAmount } from './wallet-support';

/**
 * Money in and out on the embedded chain (anvil, 1 s blocks; the server's chain loop every
 * 300 ms): faucet deposits counting their confirmations up to the credit, the balance
 * arriving on home by itself, a withdrawal to an outside address followed to completed, the
 * bills, and the cancel of a withdrawal waiting for review. Nothing here reloads a page
 * while it waits: the app follows GET /api/events.
 */

const OUTSIDE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
/** The same address with one letter's case changed: the right shape, a wrong EIP-55 checksum. */
const BAD_CHECKSUM = '0x8Ba1f109551bD432803012645Ac136ddd64DBA72';
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const HASH_RE = /^0x[0-9a-f]{64}$/;
/** 3 blocks of 1 s plus the loop and the stream; generous for a busy machine. */
const CHAIN_WAIT = { timeout: 20_000, interval: 100 };

interface Recorder {
  __e2eMark?: string;
  __e2eSeen?: Record<string, string[]>;
}

/**
 * Records every value the first match of `selector` shows (its text, or `attribute`), as the
 * page renders it: a MutationObserver sees each commit, however briefly a value stays.
 */
async function record(page: Page, name: string, selector: string, attribute?: string) {
  await page.evaluate(
    ({ name, selector, attribute }) => {
      const w = window as unknown as Recorder;
      w.__e2eSeen ??= {};
      const seen: string[] = [];
      w.__e2eSeen[name] = seen;
      const look = () => {
        const element = document.querySelector(selector);
        if (!element) return;
        const value = attribute ? element.getAttribute(attribute) : element.textContent?.trim();
        if (value && seen.at(-1) !== value) seen.push(value);
      };
      look();
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    },
    { name, selector, attribute },
  );
}

function seen(page: Page, name: string): Promise<string[]> {
  return page.evaluate((name) => (window as unknown as Recorder).__e2eSeen?.[name] ?? [], name);
}

/** Marks the loaded document; `sameDocument` is true as long as the page was not reloaded. */
async function mark(page: Page): Promise<string> {
  const value = Math.random().toString(36).slice(2);
  await page.evaluate((v) => {
    (window as unknown as Recorder).__e2eMark = v;
  }, value);
  return value;
}

async function sameDocument(page: Page, value: string): Promise<boolean> {
  return (await page.evaluate(() => (window as unknown as Recorder).__e2eMark)) === value;
}

async function pickCurrency(page: Page, button: string, code: string) {
  await page.getByTestId(button).click();
  await page.getByTestId(`currency-option-${code}`).click();
  await expect.poll(() => text(page.getByTestId(button))).toBe(code);
}

async function pickNetwork(page: Page, network: Network) {
  const option = page.getByTestId(`network-option-${network.id}`);
  await option.click();
  await expect.poll(() => option.getAttribute('aria-checked')).toBe('true');
}

/** Mails a withdrawal code from the page and types it in. */
async function enterMailedCode(page: Page, user: TestUser, lang: Lang) {
  const since = Date.now();
  await page.getByTestId('withdraw-send-code').click();
  await waitForToast(page, t(lang, 'auth.codeSent'));
  const code = await waitForCode(mailDir(), user.email, since);
  await page.fill('input[name=withdraw-code]', code);
}

async function balance(user: TestUser, code: string): Promise<Balance> {
  return must<Balance>(`/currency/balance/${await currencyId(code)}`, { token: user.token });
}

describe.each(LANGS)('wallet: on-chain deposit and withdrawal (%s)', (lang) => {
  let browser: Browser;
  let user: TestUser;
  let whale: TestUser;
  let context: BrowserContext;
  let page: Page;
  let nets: Record<string, Network>;
  let depositAddress: string;
  const depositIds: Record<string, number> = {};
  let withdrawalId: number;

  beforeAll(async () => {
    browser = await connectBrowser();
    [user, whale] = await Promise.all([
      createUser(lang, lang === 'zh-CN' ? '链上用户' : 'Chain User'),
      createUser(lang, lang === 'zh-CN' ? '大户' : 'Whale'),
    ]);
    // Above the ETH network's review threshold (50): a withdrawal of it waits for an operator.
    await fund(whale.email, '60', 'ETH');
    nets = Object.fromEntries((await must<Network[]>('/currency/onchain')).map((n) => [n.code, n]));
    context = await newPhone(browser, lang, { token: user.token });
    page = await openPage(context);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  /** The statement lines a reference finds (decision 059: every line of a chain record carries its one reference). */
  const linesOf = async (token: string, reference: number) =>
    (
      await must<{ list: { type: string; reference: number }[] }>('/getTurnover', {
        token,
        body: { page: 1, pageSize: 20, reference },
      })
    ).list;

  it('shows the ETH address and QR, and counts a faucet deposit up to the credit live', async () => {
    const eth = nets.ETH!;
    await page.goto('/');
    await expect.poll(() => text(page.getByTestId('balance-ETH-total'))).toBe('0');
    const document = await mark(page);

    await page.getByTestId('home-action-charge').click();
    await waitForPath(page, '/charge');
    await page.getByTestId('charge-page').waitFor();
    await pickCurrency(page, 'charge-currency', 'ETH');
    await pickNetwork(page, eth);

    await expect.poll(() => text(page.getByTestId('deposit-address'))).toMatch(ADDRESS_RE);
    depositAddress = await text(page.getByTestId('deposit-address'));
    const known = await must<{ networkId: number; address: string }[]>('/deposit/getAddressList', { token: user.token });
    expect(known.find((a) => a.networkId === eth.id)?.address).toBe(depositAddress);
    const qr = page.getByTestId('deposit-qr').locator('svg[role=img]');
    await qr.waitFor();
    expect(await qr.getAttribute('aria-label')).toBe(t(lang, 'charge.qrLabel', { code: 'ETH', network: eth.name }));
    expect(await qr.locator('path').getAttribute('d')).toBeTruthy();
    expect(await text(page.getByTestId('deposit-min'))).toBe('0.001 ETH');
    expect(await text(page.getByTestId('deposit-confirmations-required'))).toBe(t(lang, 'charge.confirmationsValue', { count: 3 }));
    await page.getByTestId('deposit-address-copy').waitFor();
    await expect.poll(() => text(page.getByTestId('pending-deposits-empty'))).toBe(t(lang, 'charge.pendingEmpty'));

    await record(page, 'eth-confirmations', '[data-testid=pending-deposit] [data-testid=deposit-confirmations]');
    const credited = waitForToast(page, t(lang, 'charge.credited'));
    await page.getByTestId('faucet-button').click();
    await waitForToast(page, t(lang, 'charge.faucetSent', { amount: '1', code: 'ETH' }));

    const row = page.getByTestId('pending-deposit');
    await row.waitFor({ timeout: 10_000 });
    depositIds.ETH = Number(await row.getAttribute('data-deposit-id'));
    expect(await text(row)).toContain('+1 ETH');
    // Credited at 3 of 3: the row leaves the list, the toast says so.
    await page.getByTestId('pending-deposits-empty').waitFor({ timeout: CHAIN_WAIT.timeout });
    await credited;
    const counted = await seen(page, 'eth-confirmations');
    expect(counted).toContain('1/3');
    expect(counted).toContain('2/3');
    expect(counted.indexOf('1/3')).toBeLessThan(counted.indexOf('2/3'));

    await page.goBack();
    await waitForPath(page, '/');
    await expect.poll(() => text(page.getByTestId('balance-ETH-total')), CHAIN_WAIT).toBe('1');
    expect(await sameDocument(page, document)).toBe(true);
  });

  it("shows the USDT address (the chain's one) and the deposit arriving on home by itself", async () => {
    const usdt = nets.USDT!;
    const document = await mark(page);
    await page.getByTestId('home-action-charge').click();
    await waitForPath(page, '/charge');
    await pickCurrency(page, 'charge-currency', 'USDT');
    await pickNetwork(page, usdt);
    // One address per user and chain: the token network shares the ETH address.
    await expect.poll(() => text(page.getByTestId('deposit-address'))).toBe(depositAddress);
    expect(await page.getByTestId('deposit-qr').locator('svg[role=img]').getAttribute('aria-label')).toBe(
      t(lang, 'charge.qrLabel', { code: 'USDT', network: usdt.name }),
    );
    expect(await text(page.getByTestId('deposit-min'))).toBe('1 USDT');

    await page.getByTestId('faucet-button').click();
    await waitForToast(page, t(lang, 'charge.faucetSent', { amount: '1,000', code: 'USDT' }));
    await page.goBack();
    await waitForPath(page, '/');
    await record(page, 'usdt-balance', '[data-testid=balance-USDT-total]');
    await expect.poll(() => text(page.getByTestId('balance-USDT-total'))).toBe('0');
    // Seen on chain but still confirming while home shows 0: the credit that follows
    // reaches the page through the stream.
    const usdtDeposit = async () =>
      (
        await must<PageResponse<DepositRecord>>('/deposit/getDepositList', { token: user.token, body: { page: 1, pageSize: 10 } })
      ).list.find((d) => d.code === 'USDT');
    await expect.poll(usdtDeposit, CHAIN_WAIT).toBeDefined();
    const deposit = (await usdtDeposit())!;
    expect(deposit.status).toBe('pending');
    expect(await text(page.getByTestId('balance-USDT-total'))).toBe('0');
    depositIds.USDT = deposit.id;
    await expect.poll(() => text(page.getByTestId('balance-USDT-total')), CHAIN_WAIT).toBe('1,000');
    expect(await seen(page, 'usdt-balance')).toEqual(['0', '1,000']);
    expect(await sameDocument(page, document)).toBe(true);
  });

  it('lists the credited deposits and opens one', async () => {
    await page.goto('/bill?type=charge');
    await page.getByTestId('bill-charge').waitFor();
    for (const code of ['ETH', 'USDT']) {
      const row = page.getByTestId(`deposit-row-${depositIds[code]}`);
      await row.waitFor();
      expect(await row.getByTestId('deposit-status').getAttribute('data-status')).toBe('credited');
      expect(await text(row.getByTestId('deposit-status'))).toBe(t(lang, 'chain.depositStatus.credited'));
    }
    expect(await text(page.getByTestId(`deposit-row-${depositIds.ETH}`))).toContain('+1 ETH');

    await page.getByTestId(`deposit-row-${depositIds.ETH}`).click();
    await page.waitForURL((url) => url.search === `?type=charge&id=${depositIds.ETH}`);
    await page.getByTestId('bill-detail-charge').waitFor();
    expect(await text(page.getByTestId('detail-amount'))).toContain('+1');
    expect(await page.getByTestId('detail-status').getAttribute('data-status')).toBe('credited');
    expect(await text(page.getByTestId('detail-confirmations'))).toBe('3/3');
    expect(await text(page.getByTestId('detail-tx-hash'))).toMatch(HASH_RE);
    expect(await text(page.getByTestId('detail-address'))).toBe(depositAddress);
    await page.getByTestId('status-timeline').waitFor();
    // One reference: the credit entry, as its statement line says (decision 059).
    const reference = (await must<{ reference: number }>(`/deposit/getDepositInfo/${depositIds.ETH}`, { token: user.token })).reference;
    expect(await text(page.getByTestId('detail-id'))).toBe(String(reference));
    expect((await linesOf(user.token, reference)).map((l) => `${l.type}:${l.reference}`)).toEqual([`deposit:${reference}`]);
  });

  it('refuses a bad address (empty, wrong shape, wrong checksum while typing) and a wrong e-mail code, each under its field', async () => {
    const eth = nets.ETH!;
    await page.goto('/');
    await page.getByTestId('home-action-withdraw').click();
    await waitForPath(page, '/withdraw');
    await page.getByTestId('withdraw-page').waitFor();
    await pickCurrency(page, 'withdraw-currency', 'ETH');
    await pickNetwork(page, eth);
    await expect.poll(() => text(page.getByTestId('withdraw-available'))).toBe('1 ETH');
    // The fee is quoted from the chain (calm local chain: the network's minimum fee).
    await expect.poll(() => text(page.getByTestId('withdraw-fee'))).toBe('0.0005 ETH');
    expect(await text(page.getByTestId('withdraw-range'))).toBe(t(lang, 'withdraw.range', { min: '0.002', max: '100', code: 'ETH' }));
    expect(await text(page.getByTestId('withdraw-daily-remaining'))).toBe(
      t(lang, 'withdraw.dailyRemainingValue', { remaining: '200', limit: '200', code: 'ETH' }),
    );
    expect(await page.getByTestId('withdraw-all').isEnabled()).toBe(true);

    await page.getByTestId('withdraw-next').click();
    expect(await text(page.getByTestId('address-error'))).toBe(t(lang, 'withdraw.errors.addressRequired'));
    expect(await text(page.getByTestId('code-error'))).toBe(t(lang, 'validation.code'));
    await page.fill('input[name=withdraw-address]', '0x1234');
    await expect.poll(() => text(page.getByTestId('address-error'))).toBe(t(lang, 'withdraw.errors.addressShape'));
    await page.getByTestId('withdraw-next').click();
    expect(await page.getByTestId('withdraw-confirm').count()).toBe(0);

    // The right shape with a wrong checksum: the address check says so under the field while
    // it is typed (POST /api/withdraw/check-address), and Next goes no further.
    await page.fill('input[name=withdraw-address]', BAD_CHECKSUM);
    await expect.poll(() => text(page.getByTestId('address-error'))).toBe(t(lang, 'withdraw.check.checksum'));
    await typeAmount(page, '0.25', 'withdraw-amount');
    await page.fill('input[name=withdraw-code]', '000000');
    await page.getByTestId('withdraw-next').click();
    expect(await page.getByTestId('withdraw-confirm').count()).toBe(0);
    // Said under the field it concerns, tied to it, and not popped up as well (decision 021).
    expect(await page.locator('#withdraw-address').getAttribute('aria-describedby')).toBe('withdraw-address-error');
    await noPopUp(page);

    // A good address with a wrong e-mail code: the refusal sits under the code.
    await page.fill('input[name=withdraw-address]', OUTSIDE);
    await expect.poll(() => page.getByTestId('address-error').count()).toBe(0);
    await page.getByTestId('withdraw-next').click();
    await page.getByTestId('withdraw-submit').click();
    await expect.poll(() => text(page.getByTestId('code-error'))).toBe(errorMessages[lang][ErrorCode.WRONG_EMAIL_CODE]);
    await noPopUp(page);
    const list = await must<PageResponse<WithdrawRecord>>('/withdraw/list', { token: user.token, body: { page: 1, pageSize: 10 } });
    expect(list.total).toBe(0);
  });

  it('withdraws ETH to an outside address and follows it to completed live', async () => {
    const document = await mark(page);
    await page.fill('input[name=withdraw-address]', OUTSIDE);
    await expect.poll(() => page.getByTestId('address-error').count()).toBe(0);
    expect(await text(page.getByTestId('withdraw-receive'))).toBe('0.25 ETH');
    expect(await text(page.getByTestId('withdraw-total'))).toBe('0.2505 ETH');
    await enterMailedCode(page, user, lang);

    await page.getByTestId('withdraw-next').click();
    const confirm = page.getByTestId('withdraw-confirm');
    await confirm.waitFor();
    expect(await text(confirm.getByTestId('confirm-amount'))).toBe('0.25 ETH');
    expect((await text(confirm.getByTestId('confirm-address'))).toLowerCase()).toBe(OUTSIDE.toLowerCase());
    expect(await text(confirm.getByTestId('confirm-fee'))).toBe('0.0005 ETH');
    expect(await text(confirm.getByTestId('confirm-total'))).toBe('0.2505 ETH');
    await page.getByTestId('withdraw-submit').click();

    const result = page.getByTestId('withdraw-result');
    await result.waitFor();
    withdrawalId = Number(await page.getByTestId('withdraw-result').getAttribute('data-withdrawal-id'));
    expect(withdrawalId).toBeGreaterThan(0);
    const reference = await text(page.getByTestId('withdraw-result-id'));
    await record(page, 'withdraw-status', '[data-testid=withdraw-result-status], [data-testid=detail-status]', 'data-status');
    expect(['queued', 'broadcast', 'confirming']).toContain(await page.getByTestId('withdraw-result-status').getAttribute('data-status'));

    await page.getByTestId('withdraw-view-detail').click();
    await page.waitForURL((url) => url.pathname === '/bill/detail' && url.search === `?type=withdraw&id=${withdrawalId}`);
    await page.getByTestId('bill-detail-withdraw').waitFor();
    const status = page.getByTestId('detail-status');
    await expect.poll(() => status.getAttribute('data-status'), CHAIN_WAIT).toBe('completed');
    expect(await text(status)).toBe(t(lang, 'chain.withdrawStatus.completed'));
    const statuses = await seen(page, 'withdraw-status');
    expect(statuses.at(-1)).toBe('completed');
    expect(statuses.length).toBeGreaterThan(1);
    for (const s of statuses) expect(['queued', 'broadcast', 'confirming', 'completed']).toContain(s);

    expect(await text(page.getByTestId('detail-tx-hash'))).toMatch(HASH_RE);
    expect((await text(page.getByTestId('detail-address'))).toLowerCase()).toBe(OUTSIDE.toLowerCase());
    expect(await text(page.getByTestId('detail-confirmations'))).toBe('3/3');
    expect(await page.getByTestId('timeline-completed').getAttribute('data-state')).toBe('finish');
    expect(await page.getByTestId('withdraw-cancel').count()).toBe(0);
    // The result's reference is the detail's and every statement line's: hold (available, frozen), then settle.
    expect(await text(page.getByTestId('detail-id'))).toBe(reference);
    const lines = await linesOf(user.token, Number(reference));
    expect(lines.map((l) => `${l.type}:${l.reference}`)).toEqual(
      ['withdraw_settle', 'withdraw_hold', 'withdraw_hold'].map((type) => `${type}:${reference}`),
    );
    expect(await sameDocument(page, document)).toBe(true);

    expect(await balance(user, 'ETH')).toMatchObject({ available: '0.7495', frozen: '0' });
  });

  it('lists the withdrawal in the bills', async () => {
    await page.goto('/bill?type=withdraw');
    await page.getByTestId('bill-withdraw').waitFor();
    const row = page.getByTestId(`withdraw-row-${withdrawalId}`);
    await row.waitFor();
    expect(await row.getByTestId('withdraw-status').getAttribute('data-status')).toBe('completed');
    expect(await text(row)).toContain('-0.25 ETH');
    await row.click();
    await page.waitForURL((url) => url.search === `?type=withdraw&id=${withdrawalId}`);
    await expect.poll(() => page.getByTestId('detail-status').getAttribute('data-status')).toBe('completed');
  });

  it('holds a withdrawal above the review threshold and cancels it from its detail', async () => {
    const eth = nets.ETH!;
    const other = await newPhone(browser, lang, { token: whale.token });
    const whalePage = await openPage(other);
    try {
      await whalePage.goto('/withdraw');
      await pickCurrency(whalePage, 'withdraw-currency', 'ETH');
      await pickNetwork(whalePage, eth);
      await expect.poll(() => text(whalePage.getByTestId('withdraw-available'))).toBe('60 ETH');
      await whalePage.fill('input[name=withdraw-address]', OUTSIDE);
      // Everything that fits with the fee.
      await whalePage.getByTestId('withdraw-all').click();
      await expect.poll(() => text(whalePage.getByTestId('withdraw-amount'))).toContain('59.9995');
      expect(await text(whalePage.getByTestId('withdraw-total'))).toBe('60 ETH');
      await enterMailedCode(whalePage, whale, lang);
      await whalePage.getByTestId('withdraw-next').click();
      await whalePage.getByTestId('withdraw-confirm').waitFor();
      await whalePage.getByTestId('withdraw-submit').click();

      const status = whalePage.getByTestId('withdraw-result-status');
      await status.waitFor();
      expect(await status.getAttribute('data-status')).toBe('review');
      expect(await text(status)).toBe(t(lang, 'chain.withdrawStatus.review'));
      expect(await balance(whale, 'ETH')).toMatchObject({ available: '0', frozen: '60' });

      await whalePage.getByTestId('withdraw-view-detail').click();
      await whalePage.getByTestId('bill-detail-withdraw').waitFor();
      expect(await whalePage.getByTestId('detail-status').getAttribute('data-status')).toBe('review');
      expect(await whalePage.getByTestId('timeline-review').getAttribute('data-state')).toBe('process');
      await whalePage.getByTestId('withdraw-cancel').click();
      await whalePage.locator('.adm-dialog-button', { hasText: t(lang, 'withdraw.cancelConfirm') }).click();
      await waitForToast(whalePage, t(lang, 'withdraw.cancelled'));
      await expect.poll(() => whalePage.getByTestId('detail-status').getAttribute('data-status')).toBe('cancelled');
      expect(await whalePage.getByTestId('withdraw-cancel').count()).toBe(0);
      expect(await whalePage.getByTestId('timeline-cancelled').getAttribute('data-state')).toBe('finish');
      // A cancelled withdrawal says so and what came back, never "-60 ETH … you withdrew … completed at".
      const returned = t(lang, 'bill.summary.withdrawReturned.cancelled', { amount: '60', code: 'ETH' });
      await expect.poll(() => text(whalePage.getByTestId('detail-summary'))).toBe(returned);
      expect(await text(whalePage.getByTestId('detail-amount'))).toBe('60 ETH');
      expect(await text(whalePage.getByTestId('detail-returned'))).toBe('60 ETH');
      await whalePage.getByTestId('detail-returned-at').waitFor();
      const detail = await text(whalePage.getByTestId('bill-detail-withdraw'));
      expect(detail).not.toContain(t(lang, 'chain.completedAt'));
      // Nothing was received at the address, and nothing stays deducted.
      expect(detail).toContain(t(lang, 'withdraw.requested'));
      expect(detail).not.toContain(t(lang, 'withdraw.receive'));
      expect(await whalePage.getByTestId('detail-total').count()).toBe(0);
      expect(detail).not.toContain(t(lang, 'bill.summary.withdraw', { amount: '59.9995', code: 'ETH', address: '' }).trim());
      expect(await balance(whale, 'ETH')).toMatchObject({ available: '60', frozen: '0' });
      // Its refund lines carry the hold's reference; /bill/all finds all four by the detail's number.
      const reference = await text(whalePage.getByTestId('detail-id'));
      await whalePage.goto(`/bill/all?reference=${reference}`);
      const rows = whalePage.locator('[data-testid^=turnover-row-]');
      await expect.poll(() => rows.count()).toBe(4);
      await rows.first().click();
      await whalePage.getByTestId('bill-detail-turnover').waitFor();
      expect(await text(whalePage.getByTestId('detail-type'))).toBe(t(lang, 'statement.types.withdraw_refund'));
      expect(await text(whalePage.getByTestId('detail-id'))).toBe(reference);
    } finally {
      await other.close();
    }
  });
});
