import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Network, WithdrawRecord } from '@coffer/contract/chain';
import { type Browser, type BrowserContext, devices, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, KEYS, LANGS, type Lang, t, text, uniqueEmail } from './app';
import { E2E_OPERATOR_EMAIL, type Stack, startStack } from './harness';
import { waitForCode } from './mailbox';
import { verifiedOperatorSession } from './operator-factor';
import { typeAmount } from './wallet-support';

/**
 * One currency on two chains, on the phone (docs/decisions/050-several-networks.md): this file
 * runs its own server with the second local chain (LOCAL_L2=on). USDT is withdrawn on the
 * "L2 (local)" network, whose chip shows its own fee, confirmations and time, and followed to
 * completed; its transaction is on the L2's anvil (found in the server's process group).
 */

const OUTSIDE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const PASSWORD = 'p4ssword-for-tests';
const L2_CHAIN_ID = 31338;
/** One confirmation of 1 s blocks plus the loop and the stream; generous for a busy machine. */
const CHAIN_WAIT = { timeout: 30_000, interval: 200 };

let stack: Stack;
let browser: Browser;
let operator: string;
let l2Url: string;
let l2Usdt: Network;

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function api<T>(path: string, opts: { token?: string; body?: unknown; lang?: Lang; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${stack.baseURL}/api${path}`, {
    method: opts.body === undefined ? 'GET' : 'POST',
    headers: {
      'content-type': 'application/json',
      'accept-language': opts.lang ?? 'en-US',
      ...(opts.token ? { 'x-token': opts.token } : {}),
      ...opts.headers,
    },
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${path}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

async function signUp(email: string, lang: Lang): Promise<string> {
  const since = Date.now();
  await api(`/sendMail?email=${encodeURIComponent(email)}&type=register`, { lang });
  const code = await waitForCode(stack.mailDir, email, since);
  await api('/register', { lang, body: { email, password: PASSWORD, code, nickname: 'L2' } });
  const login = await api<{ token: string; tokenHead: string }>('/login', { lang, body: { email, password: PASSWORD } });
  return login.tokenHead + login.token;
}

/** A transaction's receipt on the L2's anvil (null: not on that chain). */
async function l2Receipt(hash: string): Promise<{ status: string } | null> {
  const res = await fetch(l2Url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] }),
  });
  return ((await res.json()) as { result: { status: string } | null }).result;
}

beforeAll(async () => {
  stack = await startStack({ LOCAL_L2: 'on' });
  const processes = execFileSync('ps', ['-o', 'args=', '-g', String(stack.pgid)], { encoding: 'utf8' });
  const port = processes.match(new RegExp(`anvil .*--port (\\d+) --chain-id ${L2_CHAIN_ID}`))?.[1];
  if (!port) throw new Error(`no L2 anvil in the server's process group:\n${processes}`);
  l2Url = `http://127.0.0.1:${port}`;
  browser = await connectBrowser();
  operator = await verifiedOperatorSession(api, E2E_OPERATOR_EMAIL, PASSWORD, await signUp(E2E_OPERATOR_EMAIL, 'en-US'));
  l2Usdt = (await api<Network[]>('/currency/onchain')).find((n) => n.code === 'USDT' && n.chainId === L2_CHAIN_ID)!;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe.each(LANGS)('USDT withdrawn on the L2 network (%s)', (lang) => {
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let email: string;

  beforeAll(async () => {
    email = uniqueEmail('l2');
    token = await signUp(email, lang);
    await api('/admin/ledger/adjust', {
      token: operator,
      headers: { 'idempotency-key': randomUUID() },
      body: { email, currency: 'USDT', amount: '100', direction: 'credit', reason: 'e2e funding' },
    });
    context = await browser.newContext({
      ...devices['iPhone 13'],
      locale: lang,
      baseURL: stack.baseURL,
      serviceWorkers: 'block',
      storageState: { cookies: [], origins: [{ origin: stack.baseURL, localStorage: [{ name: KEYS.token, value: token }] }] },
    });
    page = await context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('picks the L2 network (its fee, confirmations and time on its chip) and follows the withdrawal to completed', async () => {
    await page.goto('/withdraw');
    await page.getByTestId('withdraw-page').waitFor();
    await page.getByTestId('withdraw-currency').click();
    await page.getByTestId('currency-option-USDT').click();
    const option = page.getByTestId(`network-option-${l2Usdt.id}`);
    await option.click();
    await expect.poll(() => option.getAttribute('aria-checked')).toBe('true');
    expect(await text(page.getByTestId(`network-detail-${l2Usdt.id}`))).toBe(
      t(lang, 'chain.networkDetailWithdraw', {
        fee: '0.1',
        code: 'USDT',
        confirmations: 1,
        time: t(lang, 'chain.aboutSeconds', { count: 1 }),
      }),
    );

    await page.fill('input[name=withdraw-address]', OUTSIDE);
    await typeAmount(page, '10', 'withdraw-amount');
    await expect.poll(() => page.getByTestId('address-error').count()).toBe(0);
    const since = Date.now();
    await page.getByTestId('withdraw-send-code').click();
    await page.fill('input[name=withdraw-code]', await waitForCode(stack.mailDir, email, since));
    await page.getByTestId('withdraw-next').click();
    await page.getByTestId('withdraw-confirm').waitFor();
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-result').waitFor();
    const id = Number(await page.getByTestId('withdraw-result').getAttribute('data-withdrawal-id'));

    await page.getByTestId('withdraw-view-detail').click();
    await page.getByTestId('bill-detail-withdraw').waitFor();
    const status = page.getByTestId('detail-status');
    await expect.poll(() => status.getAttribute('data-status'), CHAIN_WAIT).toBe('completed');
    expect(await text(status)).toBe(t(lang, 'chain.withdrawStatus.completed'));
    expect(await text(page.getByTestId('detail-confirmations'))).toBe('1/1');

    const record = await api<WithdrawRecord>(`/withdraw/detail/${id}`, { token });
    expect(record).toMatchObject({ networkId: l2Usdt.id, status: 'completed', amount: '10' });
    expect(await l2Receipt(record.txHash as string)).toMatchObject({ status: '0x1' });
  });
});
