import { execFileSync, spawnSync } from 'node:child_process';
import type { DepositRecord, Network } from '@coffer/contract/chain';
import type { PageResponse } from '@coffer/contract/common';
import type { Balance } from '@coffer/contract/ledger';
import { type Browser, type BrowserContext, devices, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, KEYS, LANGS, type Lang, t, text, uniqueEmail, waitForPath, waitForToast } from './app';
import { type Stack, startStack } from './harness';
import { waitForCode } from './mailbox';

/**
 * An LTC deposit on the phone, from the mempool to the credit (docs/decisions/056): this file
 * runs its own server with the local litecoind regtest node (LOCAL_UTXO=on) and no block
 * clock (LOCAL_UTXO_BLOCK_SECONDS=0): the test pays the user's address from the node's faucet
 * wallet and mines each block itself over RPC (credentials read from the node's command line
 * in the server's process group). The /charge page shows the payment unconfirmed (0/2), its
 * record the same and then 1/2, /charge then credited, and home the new balance, all without
 * a reload.
 */

const PASSWORD = 'p4ssword-for-tests';
const BECH32_REGTEST_RE = /^rltc1q[02-9ac-hj-np-z]{38}$/;
/** The loop polls every 300 ms; the stream and a busy 2-core machine add to it. */
const CHAIN_WAIT = { timeout: 20_000, interval: 100 };

const hasLitecoind = spawnSync('sh', ['-c', 'command -v litecoind']).status === 0;
if (!hasLitecoind && process.env.CI) throw new Error('litecoind is not on the PATH: install the Debian package "litecoind"');
if (!hasLitecoind) console.warn('wallet-ltc.test.ts is skipped: litecoind is not on the PATH (install the Debian package "litecoind")');

let stack: Stack;
let browser: Browser;
let ltc: Network;
let node: { url: string; auth: string };

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function api<T>(path: string, opts: { token?: string; body?: unknown; lang?: Lang } = {}) {
  const response = await fetch(`${stack.baseURL}/api${path}`, {
    method: opts.body === undefined ? 'GET' : 'POST',
    headers: {
      'content-type': 'application/json',
      'accept-language': opts.lang ?? 'en-US',
      ...(opts.token ? { 'x-token': opts.token } : {}),
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
  await api('/register', { lang, body: { email, password: PASSWORD, code, nickname: 'LTC' } });
  const login = await api<{ token: string; tokenHead: string }>('/login', { lang, body: { email, password: PASSWORD } });
  return login.tokenHead + login.token;
}

/** One JSON-RPC call to the server's litecoind (`wallet`: to its faucet wallet). */
async function rpc<T>(method: string, params: unknown[], wallet?: string): Promise<T> {
  const res = await fetch(wallet ? `${node.url}/wallet/${wallet}` : node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: node.auth },
    body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
  });
  const reply = (await res.json()) as { result: T; error: { message: string } | null };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result;
}

/** Mines `n` blocks to the faucet wallet. */
async function mine(n: number) {
  const to = await rpc<string>('getnewaddress', ['', 'bech32'], 'faucet');
  await rpc('generatetoaddress', [n, to]);
}

beforeAll(async () => {
  if (!hasLitecoind) return;
  stack = await startStack({ LOCAL_UTXO: 'on', LOCAL_UTXO_BLOCK_SECONDS: '0' });
  const processes = execFileSync('ps', ['-o', 'args=', '-g', String(stack.pgid)], { encoding: 'utf8' });
  const args = processes.split('\n').find((line) => /litecoind .*-regtest/.test(line)) ?? '';
  const flag = (name: string) => args.match(new RegExp(`-${name}=(\\S+)`))?.[1];
  const [port, user, password] = [flag('rpcport'), flag('rpcuser'), flag('rpcpassword')];
  if (!port || !user || !password) throw new Error("no litecoind with its RPC flags in the server's process group");
  node = { url: `http://127.0.0.1:${port}`, auth: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
  browser = await connectBrowser();
  ltc = (await api<Network[]>('/currency/onchain')).find((n) => n.code === 'LTC')!;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  // The server's process group goes down with it: litecoind among it.
  await stack?.stop();
});

describe.skipIf(!hasLitecoind).each(LANGS)('an LTC deposit from the mempool to the credit (%s)', (lang) => {
  let context: BrowserContext;
  let page: Page;
  let token: string;

  const deposits = async () =>
    (await api<PageResponse<DepositRecord>>('/deposit/getDepositList', { token, body: { page: 1, pageSize: 10 } })).list;

  beforeAll(async () => {
    token = await signUp(uniqueEmail('ltc'), lang);
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

  it('shows the address and QR, the payment unconfirmed 0/2 on /charge and in its record, then 1/2, then credited with the balance, live', async () => {
    expect(ltc).toMatchObject({ name: 'Litecoin (regtest)', family: 'utxo', confirmations: 2, depositEnabled: true });
    await page.goto('/');
    await page.getByTestId('home-action-charge').click();
    await waitForPath(page, '/charge');
    await page.getByTestId('charge-currency').click();
    await page.getByTestId('currency-option-LTC').click();
    await expect.poll(() => text(page.getByTestId('charge-currency'))).toBe('LTC');
    const option = page.getByTestId(`network-option-${ltc.id}`);
    await option.click();
    await expect.poll(() => option.getAttribute('aria-checked')).toBe('true');
    expect(await text(option)).toContain('Litecoin (regtest)');

    await expect.poll(() => text(page.getByTestId('deposit-address'))).toMatch(BECH32_REGTEST_RE);
    const address = await text(page.getByTestId('deposit-address'));
    const qr = page.getByTestId('deposit-qr').locator('svg[role=img]');
    await qr.waitFor();
    expect(await qr.getAttribute('aria-label')).toBe(t(lang, 'charge.qrLabel', { code: 'LTC', network: ltc.name }));
    expect(await text(page.getByTestId('deposit-confirmations-required'))).toBe(t(lang, 'charge.confirmationsValue', { count: 2 }));
    await expect.poll(() => text(page.getByTestId('pending-deposits-empty'))).toBe(t(lang, 'charge.pendingEmpty'));
    const loaded = Math.random().toString(36).slice(2);
    await page.evaluate((v) => Object.assign(window, { __e2eMark: v }), loaded);

    // Paid from the faucet wallet, not mined: shown unconfirmed at 0/2, the balance untouched.
    const started = performance.now();
    const txid = await rpc<string>('sendtoaddress', [address, '0.5'], 'faucet');
    const row = page.getByTestId('pending-deposit');
    const tag = row.locator('[data-status]');
    await expect.poll(() => tag.getAttribute('data-status'), CHAIN_WAIT).toBe('unconfirmed');
    console.log(`ltc e2e: sent to shown unconfirmed in ${Math.round(performance.now() - started)} ms (${lang})`);
    expect(await text(tag)).toBe(t(lang, 'chain.depositStatus.unconfirmed'));
    expect(await text(row.getByTestId('deposit-confirmations'))).toBe('0/2');
    expect(await text(row)).toContain('+0.5 LTC');
    const [seen] = await deposits();
    expect(seen).toMatchObject({ txHash: txid, status: 'unconfirmed', confirmations: 0 });
    expect(Number(await row.getAttribute('data-deposit-id'))).toBe(seen!.id);
    expect((await api<Balance>(`/currency/balance/${ltc.currencyId}`, { token })).available).toBe('0');

    // Its record says so too, and follows the first block live: the same record, 1/2.
    await row.click();
    await waitForPath(page, `/bill/detail?type=charge&id=${seen!.id}`);
    const status = page.getByTestId('detail-status');
    await expect.poll(() => status.getAttribute('data-status')).toBe('unconfirmed');
    expect(await text(status)).toBe(t(lang, 'chain.depositStatus.unconfirmed'));
    expect(await text(page.getByTestId('detail-confirmations'))).toBe('0/2');
    expect(await text(page.getByTestId('timeline-unconfirmed'))).toContain(t(lang, 'chain.steps.unconfirmed'));
    await mine(1);
    await expect.poll(() => status.getAttribute('data-status'), CHAIN_WAIT).toBe('pending');
    await expect.poll(() => text(page.getByTestId('detail-confirmations'))).toBe('1/2');
    expect(await text(status)).toBe(t(lang, 'chain.depositStatus.pending'));

    // Back on /charge: the same row, confirming 1/2.
    await page.goBack();
    await waitForPath(page, '/charge');
    await expect.poll(() => tag.getAttribute('data-status')).toBe('pending');
    await expect.poll(() => text(row.getByTestId('deposit-confirmations'))).toBe('1/2');
    expect(await text(tag)).toBe(t(lang, 'chain.depositStatus.pending'));
    expect(Number(await row.getAttribute('data-deposit-id'))).toBe(seen!.id);

    // The second: credited, the row leaves the list, the toast says so; home shows the balance.
    const credited = waitForToast(page, t(lang, 'charge.credited'));
    await mine(1);
    await page.getByTestId('pending-deposits-empty').waitFor({ timeout: CHAIN_WAIT.timeout });
    await credited;
    console.log(`ltc e2e: sent to credited on screen in ${Math.round(performance.now() - started)} ms (${lang})`);
    expect(await deposits()).toMatchObject([{ id: seen!.id, status: 'credited', confirmations: 2 }]);

    await page.goBack();
    await waitForPath(page, '/');
    await expect.poll(() => text(page.getByTestId('balance-LTC-total')), CHAIN_WAIT).toBe('0.5');
    expect(await page.evaluate(() => (window as unknown as { __e2eMark?: string }).__e2eMark)).toBe(loaded);
  });
});
