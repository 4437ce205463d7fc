import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Network, WithdrawQuoteData, WithdrawRecord } from '@coffer/contract/chain';
import { type Browser, type BrowserContext, devices, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, KEYS, LANGS, type Lang, t, text, uniqueEmail } from './app';
import { E2E_OPERATOR_EMAIL, type Stack, startStack } from './harness';
import { waitForCode } from './mailbox';
import { verifiedOperatorSession } from './operator-factor';
import { typeAmount } from './wallet-support';

/**
 * The withdrawal fee quoted from the chain (docs/decisions/040), on the phone: the fee (and
 * what arrives, what is held) shows before the e-mail code step; when the quote is renewed
 * before it runs out and the chain's base fee has spiked meanwhile, the page says the fee
 * changed; the withdrawal is charged the fee the sheet showed. This file runs its own server
 * and talks to its embedded anvil (found in the server's process group) to move the base fee
 * (anvil_setNextBlockBaseFeePerGas).
 */

const OUTSIDE = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const PASSWORD = 'p4ssword-for-tests';

let anvilUrl: string;
let stack: Stack;
let browser: Browser;
let operator: string;

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
  await api('/register', { lang, body: { email, password: PASSWORD, code, nickname: 'Fee' } });
  const login = await api<{ token: string; tokenHead: string }>('/login', { lang, body: { email, password: PASSWORD } });
  return login.tokenHead + login.token;
}

async function rpc(method: string, params: unknown[]) {
  const res = await fetch(anvilUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
}

/** The base fee of the next blocks, in gwei: set, then a block mined at it. */
async function baseFee(gwei: bigint) {
  await rpc('anvil_setNextBlockBaseFeePerGas', [`0x${(gwei * 10n ** 9n).toString(16)}`]);
  await rpc('anvil_mine', ['0x1']);
}

beforeAll(async () => {
  stack = await startStack();
  // The embedded anvil is a child of the server: its --port is in the server's process group.
  const processes = execFileSync('ps', ['-o', 'args=', '-g', String(stack.pgid)], { encoding: 'utf8' });
  const port = processes.match(/anvil .*--port (\d+)/)?.[1];
  if (!port) throw new Error(`no embedded anvil in the server's process group:\n${processes}`);
  anvilUrl = `http://127.0.0.1:${port}`;
  browser = await connectBrowser();
  operator = await verifiedOperatorSession(api, E2E_OPERATOR_EMAIL, PASSWORD, await signUp(E2E_OPERATOR_EMAIL, 'en-US'));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe.each(LANGS)('withdrawal fee from the chain (%s)', (lang) => {
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let email: string;

  beforeAll(async () => {
    email = uniqueEmail('fee');
    token = await signUp(email, lang);
    await api('/admin/ledger/adjust', {
      token: operator,
      headers: { 'idempotency-key': randomUUID() },
      body: { email, currency: 'ETH', amount: '1', direction: 'credit', reason: 'e2e funding' },
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
    await baseFee(1n);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('shows the quoted fee before the code step, renews it, says it changed, and charges what it showed', async () => {
    // The page's clock is ours: the quote's renewal comes when we move time, not after two minutes.
    await page.clock.install();
    await page.goto('/withdraw');
    await page.getByTestId('withdraw-page').waitFor();
    await page.getByTestId('withdraw-currency').click();
    await page.getByTestId('currency-option-ETH').click();
    await page.fill('input[name=withdraw-address]', OUTSIDE);
    await typeAmount(page, '0.25', 'withdraw-amount');

    // Before any code: the fee from the chain (calm: the network's minimum), what arrives, what is held.
    await expect.poll(() => text(page.getByTestId('withdraw-fee'))).toBe('0.0005 ETH');
    expect(await text(page.getByTestId('withdraw-receive'))).toBe('0.25 ETH');
    expect(await text(page.getByTestId('withdraw-total'))).toBe('0.2505 ETH');
    expect(await page.inputValue('input[name=withdraw-code]')).toBe('');
    const feeBox = await page.getByTestId('withdraw-fee').boundingBox();
    const codeBox = await page.getByTestId('withdraw-send-code').boundingBox();
    expect(feeBox!.y).toBeLessThan(codeBox!.y);
    expect(await page.getByTestId('withdraw-fee-changed').count()).toBe(0);

    // The base fee spikes to 180 gwei (it falls 12.5% a block after); the quote is renewed
    // before it runs out (2 minutes). The chain's block a second is held meanwhile: on a loaded
    // runner five empty blocks before the renewal had taken the spike away again.
    await rpc('evm_setIntervalMining', [0]);
    await baseFee(180n);
    const renewed = page.waitForResponse((r) => r.url().endsWith('/api/withdraw/quote'));
    await page.clock.fastForward(110_000);
    const quote = ((await (await renewed).json()) as Envelope<WithdrawQuoteData>).data;
    await rpc('evm_setIntervalMining', [1]);
    expect(Number(quote.fee)).toBeGreaterThan(0.002);
    await expect.poll(() => text(page.getByTestId('withdraw-fee'))).toBe(`${quote.fee} ETH`);
    expect(await text(page.getByTestId('withdraw-fee-changed'))).toBe(
      t(lang, 'withdraw.feeChanged', { from: '0.0005', to: quote.fee, code: 'ETH' }),
    );
    const total = (0.25 + Number(quote.fee)).toFixed(6).replace(/0+$/, '');
    expect(await text(page.getByTestId('withdraw-total'))).toBe(`${total} ETH`);

    // Then the code, and the sheet charges exactly the quote.
    const since = Date.now();
    await page.getByTestId('withdraw-send-code').click();
    await page.fill('input[name=withdraw-code]', await waitForCode(stack.mailDir, email, since));
    await page.getByTestId('withdraw-next').click();
    const confirm = page.getByTestId('withdraw-confirm');
    await confirm.waitFor();
    expect(await text(confirm.getByTestId('confirm-fee'))).toBe(`${quote.fee} ETH`);
    expect(await text(confirm.getByTestId('confirm-total'))).toBe(`${total} ETH`);
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-result').waitFor();
    const id = Number(await page.getByTestId('withdraw-result').getAttribute('data-withdrawal-id'));
    const record = await api<WithdrawRecord>(`/withdraw/detail/${id}`, { token });
    expect(record).toMatchObject({ fee: quote.fee, amount: '0.25', total });
    const eth = (await api<Network[]>('/currency/onchain')).find((n) => n.code === 'ETH')!;
    expect(record.networkId).toBe(eth.id);
    await baseFee(1n);
  });
});
