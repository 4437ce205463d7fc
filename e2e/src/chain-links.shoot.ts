import type { DepositRecord, Network } from '@coffer/contract/chain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { connectBrowser, createUser, type Lang, text } from './app';
import { fund, must, openPage, operatorToken } from './wallet-support';
import { capture, shootInEveryLook, shotPhone } from './shoot-support';

/**
 * The chain screens' links into docs/screenshots: a deposit's detail with its transaction and
 * address linked to the explorer the operator set (decision 059), and /withdraw with the paste
 * and scan buttons beside the address.
 * `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts src/chain-links.shoot.ts`.
 */
const EXPLORER = { explorerUrl: 'https://etherscan.io/address/{address}', explorerTxUrl: 'https://etherscan.io/tx/{tx}' };

async function setExplorer(networkId: number, changes: Record<string, string | null>) {
  await must(`/admin/networks/${networkId}`, { token: await operatorToken(), body: { changes, reason: 'screenshots: explorer links' } });
}

let browser: Browser;
let eth: Network;
beforeAll(async () => {
  browser = await connectBrowser();
  eth = (await must<Network[]>('/currency/onchain')).find((n) => n.code === 'ETH')!;
  // Before any phone opens: the app reads the networks once a minute.
  await setExplorer(eth.id, EXPLORER);
});
afterAll(async () => {
  // The local chain as it was for anything run after: without an explorer.
  if (eth) await setExplorer(eth.id, { explorerUrl: null, explorerTxUrl: null });
  await browser?.close();
});

const OUTSIDE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

async function shootChain(lang: Lang, prefix: string, theme?: 'dark') {
  const user = await createUser(lang, lang === 'zh-CN' ? '林小满' : 'Avery Chen');
  await fund(user.email, '1', 'ETH');
  await must('/deposit/faucet', { token: user.token, body: { networkId: eth.id } });
  const latest = async () =>
    (await must<{ list: DepositRecord[] }>('/deposit/getDepositList', { token: user.token, body: { page: 1, pageSize: 1 } })).list[0];
  // Credited: the detail shows its confirmations complete and the explorer links.
  await expect.poll(async () => (await latest())?.status, { timeout: 30_000 }).toBe('credited');
  const deposit = (await latest())!;
  const context = await shotPhone(browser, lang, user.token, theme);
  const page = await openPage(context);
  try {
    await page.goto(`/bill/detail?type=charge&id=${deposit.id}`);
    const tx = page.getByTestId('detail-tx-hash');
    await expect.poll(() => tx.getAttribute('href')).toBe(`https://etherscan.io/tx/${deposit.txHash}`);
    await capture(page, `${prefix}-deposit-detail`, { fullPage: true });

    if (!theme) {
      await page.goto('/withdraw');
      await page.getByTestId('withdraw-currency').click();
      await page.getByTestId('currency-option-ETH').click();
      await expect.poll(() => text(page.getByTestId('withdraw-currency'))).toBe('ETH');
      await page.getByTestId(`network-option-${eth.id}`).click();
      await page.getByTestId('withdraw-scan').waitFor();
      await page.fill('input[name=withdraw-address]', OUTSIDE);
      // As a user leaves it: the address from its start, without the typing focus ring.
      await page.locator('input[name=withdraw-address]').blur();
      await capture(page, `${prefix}-withdraw-scan`);
    }
  } finally {
    await context.close();
  }
}

shootInEveryLook('chain screens', shootChain);
