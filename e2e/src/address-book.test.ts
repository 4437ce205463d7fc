import { randomUUID } from 'node:crypto';
import type { AddressBookData } from '@coffer/contract/address-book';
import type { Network } from '@coffer/contract/chain';
import { ErrorCode, errorMessages } from '@coffer/contract/errors';
import pg from 'pg';
import { type Browser, type BrowserContext, devices, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, KEYS, LANGS, type Lang, t, text, uniqueEmail, waitForToast } from './app';
import { E2E_OPERATOR_EMAIL, type Stack, startStack } from './harness';
import { waitForCode } from './mailbox';
import { verifiedOperatorSession } from './operator-factor';
import { typeAmount } from './wallet-support';

/**
 * The withdrawal address book with its time lock (docs/security.md, "Address book"): an
 * address added without the second factor is refused on /withdraw until its waiting time has
 * passed. The clock is moved in SQL, never by sleeping, so this file runs its own server on
 * PostgreSQL (E2E_POSTGRES_URL, default the local server as user postgres) in a database it
 * creates and drops.
 */

const ADMIN_URL = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const FRIEND = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const PASSWORD = 'p4ssword-for-tests';

let stack: Stack;
let databaseUrl: string;
let databaseName: string;
let browser: Browser;

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

/** Registers and signs in through this file's server; the stored-token form. */
/** The stack's operator, registered and given a second factor once for both languages. */
let operatorOnce: Promise<string> | undefined;
const operatorSession = () =>
  (operatorOnce ??= signUp(E2E_OPERATOR_EMAIL, 'en-US').then((token) => verifiedOperatorSession(api, E2E_OPERATOR_EMAIL, PASSWORD, token)));

async function signUp(email: string, lang: Lang): Promise<string> {
  const since = Date.now();
  await api(`/sendMail?email=${encodeURIComponent(email)}&type=register`, { lang });
  const code = await waitForCode(stack.mailDir, email, since);
  await api('/register', { lang, body: { email, password: PASSWORD, code, nickname: 'Book' } });
  const login = await api<{ token: string; tokenHead: string }>('/login', { lang, body: { email, password: PASSWORD } });
  return login.tokenHead + login.token;
}

async function sql(statement: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement, params);
  } finally {
    await client.end();
  }
}

async function phone(lang: Lang, token: string): Promise<BrowserContext> {
  return browser.newContext({
    ...devices['iPhone 13'],
    locale: lang,
    baseURL: stack.baseURL,
    serviceWorkers: 'block',
    storageState: { cookies: [], origins: [{ origin: stack.baseURL, localStorage: [{ name: KEYS.token, value: token }] }] },
  });
}

beforeAll(async () => {
  databaseName = `coffer_e2e_book_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  stack = await startStack({ DATABASE_URL: databaseUrl });
  browser = await connectBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
});

describe.each(LANGS)('address book with a time lock (%s)', (lang) => {
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let email: string;

  beforeAll(async () => {
    email = uniqueEmail('book');
    token = await signUp(email, lang);
    // Funds through the operator's adjustment, the real ledger path.
    const operator = await operatorSession();
    await api('/admin/ledger/adjust', {
      token: operator,
      headers: { 'idempotency-key': randomUUID() },
      body: { email, currency: 'ETH', amount: '1', direction: 'credit', reason: 'e2e funding' },
    });
    context = await phone(lang, token);
    page = await context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('adds an address that waits, refuses it on /withdraw until its time has passed, then pays it', async () => {
    // Reached from settings.
    await page.goto('/settings');
    await page.getByTestId('settings-address-book').click();
    await page.getByTestId('address-book-page').waitFor();
    expect(await text(page.getByTestId('address-book-empty'))).toBe(t(lang, 'addressBook.none'));
    await page.getByTestId('address-book-address').locator('input').fill(FRIEND);
    await page
      .getByTestId('address-book-label')
      .locator('input')
      .fill(lang === 'zh-CN' ? '朋友' : 'Friend');
    await page.getByTestId('address-book-add').click();
    await waitForToast(page, t(lang, 'addressBook.added'));
    const item = page.getByTestId('address-book-item');
    await item.waitFor();
    // A full day, give or take the minute the page took.
    const lefts = [t(lang, 'addressBook.waitLeft', { hours: 24, minutes: 0 }), t(lang, 'addressBook.waitLeft', { hours: 23, minutes: 59 })];
    const waiting = lefts.map((left) => t(lang, 'addressBook.waiting', { left }));
    expect(waiting).toContain(await text(item.getByTestId('address-book-status')));

    // /withdraw picks it from the book and says, under the field, how long it still waits.
    await page.goto('/withdraw');
    await page.getByTestId('withdraw-page').waitFor();
    await page.getByTestId('withdraw-currency').click();
    await page.getByTestId('currency-option-ETH').click();
    await page.getByTestId('withdraw-pick-book').click();
    await page.getByTestId('withdraw-book-entry').click();
    expect(await page.inputValue('input[name=withdraw-address]')).toBe(FRIEND);
    await expect.poll(() => page.getByTestId('address-error').count()).toBe(1);
    const refusals = lefts.map((left) => t(lang, 'withdraw.check.not_yet_usable', { left }));
    expect(refusals).toContain(await text(page.getByTestId('address-error')));
    await page.getByTestId('withdraw-next').click();
    expect(await page.getByTestId('withdraw-confirm').count()).toBe(0);
    // The server refuses it too (3015, with the time left), whatever the page shows.
    const eth = (await api<Network[]>('/currency/onchain')).find((n) => n.code === 'ETH')!;
    const refused = await fetch(`${stack.baseURL}/api/withdraw/apply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-token': token, 'accept-language': lang },
      body: JSON.stringify({
        currencyId: eth.currencyId,
        networkId: eth.id,
        address: FRIEND,
        amount: '0.1',
        code: '123456',
        quoteId: (await api<{ quoteId: number }>('/withdraw/quote', { token, body: { networkId: eth.id } })).quoteId,
      }),
    }).then((r) => r.json() as Promise<Envelope<null>>);
    expect(refused.code).toBe(ErrorCode.ADDRESS_NOT_YET_USABLE);
    expect(refused.message.startsWith(errorMessages[lang][ErrorCode.ADDRESS_NOT_YET_USABLE])).toBe(true);

    // A day passes, in the database.
    await sql(
      `update address_book set created_at = created_at - interval '25 hours', usable_at = usable_at - interval '25 hours'
       where user_id = (select id from users where email = $1)`,
      [email],
    );
    const book = await api<AddressBookData>('/address-book', { token });
    expect(book.list).toMatchObject([{ address: FRIEND, usable: true }]);

    await page.reload();
    await page.getByTestId('withdraw-page').waitFor();
    await page.getByTestId('withdraw-currency').click();
    await page.getByTestId('currency-option-ETH').click();
    await page.getByTestId('withdraw-pick-book').click();
    await page.getByTestId('withdraw-book-entry').click();
    await expect
      .poll(() => text(page.getByTestId('address-note')))
      .toBe(t(lang, 'withdraw.check.inBook', { label: lang === 'zh-CN' ? '朋友' : 'Friend' }));
    expect(await page.getByTestId('address-error').count()).toBe(0);
    await typeAmount(page, '0.1', 'withdraw-amount');
    const since = Date.now();
    await page.getByTestId('withdraw-send-code').click();
    const code = await waitForCode(stack.mailDir, email, since);
    await page.fill('input[name=withdraw-code]', code);
    await page.getByTestId('withdraw-next').click();
    await page.getByTestId('withdraw-confirm').waitFor();
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-result').waitFor();
  });
});
