import type { DepositRecord, Network } from '@coffer/contract/chain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, connectBrowser, createUser, LANGS, type Lang, newPhone, type TestUser, t, text } from './app';
import { apiSwap, apiTransfer, fund, must, openPage, operatorToken } from './wallet-support';

/** Explorer templates an operator sets on the ETH network (the local chain has none of its own). */
const EXPLORER = { explorerUrl: 'https://etherscan.io/address/{address}', explorerTxUrl: 'https://etherscan.io/tx/{tx}' };

async function setExplorer(networkId: number, changes: Record<string, string | null>) {
  await must(`/admin/networks/${networkId}`, { token: await operatorToken(), body: { changes, reason: 'e2e: explorer links' } });
}

/** Bookkeeping words and internal ids that record details must not show (decision 020). */
function bookkeepingWords(lang: Lang): string[] {
  return lang === 'zh-CN' ? ['凭证编号', '报价编号', '记账明细', '账户'] : ['Entry ID', 'Quote ID', 'Postings', 'Account'];
}

async function expectPlain(page: Page, lang: Lang) {
  const body = await text(page.getByTestId('bill-detail'));
  for (const word of bookkeepingWords(lang)) expect(body, word).not.toContain(word);
}

describe.each(LANGS)('wallet: record details in plain language (%s)', (lang) => {
  let browser: Browser;
  let owner: TestUser;
  let friend: TestUser;
  let context: BrowserContext;
  let page: Page;
  let transferId: number;
  let transferRef: number;
  let swapId: number;
  let eth: Network;

  beforeAll(async () => {
    browser = await connectBrowser();
    eth = (await must<Network[]>('/currency/onchain')).find((n) => n.code === 'ETH')!;
    // Before the phone opens: it reads the networks once a minute.
    await setExplorer(eth.id, EXPLORER);
    [owner, friend] = await Promise.all([
      createUser(lang, lang === 'zh-CN' ? '明细主' : 'Detail Owner'),
      createUser(lang, lang === 'zh-CN' ? '收款朋友' : 'Payee Friend'),
    ]);
    await fund(owner.email, '200');
    ({ id: transferId, reference: transferRef } = await apiTransfer(owner, friend.email, '9.505', 'rent'));
    swapId = (await apiSwap(owner, 'USDT', 'ETH', '20')).id;
    context = await newPhone(browser, lang, { token: owner.token });
    page = await openPage(context);
  });

  afterAll(async () => {
    // Later files see the local chain as it was: without an explorer.
    if (eth) await setExplorer(eth.id, { explorerUrl: null, explorerTxUrl: null });
    await context?.close();
    await browser?.close();
  });

  it('a transfer says what happened, to whom, the fee, with a copyable reference', async () => {
    await page.goto(`/bill/detail?type=transfer&id=${transferId}`);
    await page.getByTestId('bill-detail-transfer').waitFor();
    // USDT's display precision (2), what was sent rounded up as on the list; the exact value one tap away.
    await page.getByText(t(lang, 'bill.summary.transferOut', { amount: '9.51', code: 'USDT', name: friend.nickname })).waitFor();
    const amount = page.getByTestId('detail-amount');
    expect(await text(amount)).toBe('-9.51 USDT');
    expect(await page.getByRole('button', { name: t(lang, 'bill.copyAmount') }).count()).toBe(0);
    await amount.click();
    await expect.poll(() => text(amount)).toBe('-9.505 USDT');
    await page.getByRole('button', { name: t(lang, 'bill.copyAmount') }).waitFor();
    await amount.click();
    await expect.poll(() => text(amount)).toBe('-9.51 USDT');
    // One reference per transaction (decision 053): the record, its statement line, the CSV and the search.
    expect(await text(page.getByTestId('detail-id'))).toBe(String(transferRef));
    await page.getByRole('button', { name: t(lang, 'bill.copyReference') }).waitFor();
    expect(await text(page.getByTestId('detail-counterparty'))).toContain(friend.nickname);
    expect(await text(page.getByTestId('detail-fee'))).toBe('0 USDT');
    await expectPlain(page, lang);
  });

  it('a swap says what was paid and received, the rate and the fee, without quote or entry ids', async () => {
    await page.goto(`/bill/detail?type=swap&id=${swapId}`);
    await page.getByTestId('bill-detail-swap').waitFor();
    // ETH at its display precision, as quoted: ⌊20 × 0.000332333…⌋₆ − ⌈fee⌉₆ (never 0.0066400199…).
    expect(await text(page.getByTestId('detail-amount'))).toBe('+0.006639 ETH');
    expect(await text(page.getByTestId('detail-fee'))).toBe('0.000007 ETH');
    await page.getByText(new RegExp(t(lang, 'bill.summary.swap', { paid: '20 USDT', received: '(.+) ETH' }))).waitFor();
    await page.getByRole('button', { name: t(lang, 'bill.copyReference') }).waitFor();
    expect(await text(page.getByTestId('detail-rate'))).toMatch(/^1 ETH ≈ [\d,.]+ USDT$/);
    expect(await text(page.getByTestId('detail-fee'))).toMatch(/ ETH$/);
    await expectPlain(page, lang);
  });

  it('a statement line uses the same words as the CSV export', async () => {
    const lines = await must<{ list: { id: number; reference: number; type: string }[] }>('/getTurnover', {
      token: owner.token,
      body: { page: 1, pageSize: 20 },
    });
    const adjustment = lines.list.find((line) => line.type === 'adjustment')!;
    await page.goto(`/bill/detail?type=turnover&id=${adjustment.id}`);
    const label = t(lang, 'statement.types.adjustment');
    await expect.poll(() => text(page.getByTestId('detail-type'))).toBe(label);
    await expectPlain(page, lang);

    const csv = await fetch(`${baseURL()}/api/turnover/export.csv`, {
      headers: { 'x-token': owner.token, 'accept-language': lang },
    }).then((r) => r.text());
    const row = csv.split('\r\n').find((line) => line.startsWith(`${adjustment.reference},`))!;
    expect(row.split(',')[2]).toBe(label);
    const transferRow = csv.split('\r\n').find((line) => line.includes(t(lang, 'statement.types.transfer_out')))!;
    expect(transferRow.split(',')[0]).toBe(String(transferRef));
  });

  it('the statement finds the transfer by its reference and its line shows the same one', async () => {
    await page.goto('/bill/all');
    const search = page.getByTestId('statement-search').locator('input');
    await search.fill(String(transferRef));
    await search.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('reference') === String(transferRef));
    const lines = page.locator('[data-testid^=turnover-row-]');
    await expect.poll(() => lines.count()).toBe(1);
    await lines.first().click();
    await page.getByTestId('bill-detail-turnover').waitFor();
    expect(await text(page.getByTestId('detail-id'))).toBe(String(transferRef));
  });

  it('a deposit opens its transaction and address on the explorer the operator set, in a new tab', async () => {
    await must('/deposit/faucet', { token: owner.token, body: { networkId: eth.id } });
    const latest = async () =>
      (await must<{ list: DepositRecord[] }>('/deposit/getDepositList', { token: owner.token, body: { page: 1, pageSize: 1 } })).list[0];
    await expect.poll(latest, { timeout: 20_000 }).toBeDefined();
    const deposit = (await latest())!;
    await page.goto(`/bill/detail?type=charge&id=${deposit.id}`);
    const tx = page.getByTestId('detail-tx-hash');
    await expect.poll(() => tx.getAttribute('href')).toBe(`https://etherscan.io/tx/${deposit.txHash}`);
    expect(await text(tx)).toBe(deposit.txHash);
    expect(await tx.getAttribute('target')).toBe('_blank');
    expect(await tx.getAttribute('rel')).toContain('noopener');
    expect(await tx.getAttribute('title')).toBe(t(lang, 'chain.openExplorer'));
    expect(await page.getByTestId('detail-address').getAttribute('href')).toBe(`https://etherscan.io/address/${deposit.address}`);
  });
});
