import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Network, WithdrawRecord } from '@coffer/contract/chain';
import type { Currency } from '@coffer/contract/ledger';
import type { BrowserContext, Page } from 'playwright-core';
import { codeFor, STEP_MS, sendPreviousCode, stepAt } from './authenticator';
import { baseURL, type Lang, mailDir, rendered, type TestUser } from './app';
import { E2E_OPERATOR_EMAIL } from './harness';
import { waitForCode } from './mailbox';

/** Helpers shared by the wallet-*.test.ts files: API calls that set the scene, and the keypad. */

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

interface CallOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  token?: string;
  lang?: Lang;
  headers?: Record<string, string>;
}

/** One API call; resolves to the whole envelope so callers can look at refusals. */
export async function call<T>(path: string, options: CallOptions = {}): Promise<Envelope<T>> {
  const response = await fetch(`${baseURL()}/api${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      'accept-language': options.lang ?? 'en-US',
      ...(options.token ? { 'x-token': options.token } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return (await response.json()) as Envelope<T>;
}

/** Like call, but throws unless the code is 0. */
export async function must<T>(path: string, options: CallOptions = {}): Promise<T> {
  const reply = await call<T>(path, options);
  if (reply.code !== 0) throw new Error(`${path}: ${reply.code} ${reply.message}`);
  return reply.data;
}

/** Turns two-factor on through the API (the enrolment page has its own test). */
export async function enableTwoFactor(user: { token: string; password: string }, secret: string): Promise<void> {
  await sendPreviousCode(secret, (code) => must('/2fa/enable', { token: user.token, body: { code, password: user.password } }));
}

/** POST /api/withdraw/quote: the fee quote a withdrawal carries (docs/decisions/040); its id. */
export async function feeQuoteId(token: string, networkId: number): Promise<number> {
  return (await must<{ quoteId: number }>('/withdraw/quote', { token, body: { networkId } })).quoteId;
}

export const OPERATOR_PASSWORD = 'operator-Password-1';
let operator: Promise<string> | null = null;

/**
 * The e2e operators' authenticator secrets and the last 30 s step each used, kept beside the
 * run's mail folder: every test file is its own process, and a step's code is accepted once per
 * account (the server refuses a replay).
 */
interface OperatorState {
  /** `token`: the run's signed-in session of this operator, shared by every file (see signInOperator). */
  [email: string]: { secret: string; lastStep: number; token?: string };
}
const stateFile = () => join(dirname(mailDir()), 'e2e-operators.json');
const readState = (): OperatorState => (existsSync(stateFile()) ? (JSON.parse(readFileSync(stateFile(), 'utf8')) as OperatorState) : {});
const writeState = (state: OperatorState) => writeFileSync(stateFile(), JSON.stringify(state));

/**
 * A code of the operator's authenticator that was not used yet: the current step's, or the next
 * one's (the server accepts one step either side); when both are spent, it waits for the step.
 */
export async function operatorCode(email = E2E_OPERATOR_EMAIL): Promise<string> {
  const state = readState();
  const entry = state[email];
  if (!entry) throw new Error(`no authenticator enrolled for ${email}`);
  let step = Math.max(stepAt(Date.now()), entry.lastStep + 1);
  const wait = (step - 1) * STEP_MS + 1000 - Date.now();
  if (wait > 0) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    step = Math.max(stepAt(Date.now()), entry.lastStep + 1);
  }
  writeState({ ...state, [email]: { ...entry, lastStep: step } });
  return codeFor(entry.secret, 0, step * STEP_MS + 1000);
}

type LoginAnswer = { token: string; tokenHead: string } | { secondFactor: { challenge: string } };

/** Turns authenticator codes on for a signed-in operator (re-authenticate, set up, first code); keeps the secret. */
async function enrolAuthenticator(email: string, token: string): Promise<void> {
  await must('/security/reauth', { token, body: { password: OPERATOR_PASSWORD } });
  const setup = await must<{ secret: string }>('/2fa/setup', { token, body: {} });
  writeState({ ...readState(), [email]: { secret: setup.secret, lastStep: 0 } });
  await must('/2fa/enable', { token, body: { code: await operatorCode(email) } });
}

/**
 * Signs an operator in with the password and an authenticator code (operators need a second
 * factor; docs/decisions/045). On a fresh server it registers them first and enrols the
 * authenticator. OPERATOR_EMAILS makes only the first operator an admin; any other operator is
 * given every role by the first one, through the console's API.
 */
export async function signInOperator(email = E2E_OPERATOR_EMAIL): Promise<string> {
  // One API session per operator and run: an authenticator code is good once per 30 s step, so
  // signing in again in every file would wait for codes. A session that ended is replaced.
  const kept = readState()[email]?.token;
  if (kept) {
    const session = await call<{ sessionVerified: boolean }>('/operator/session', { token: kept });
    if (session.code === 0 && session.data.sessionVerified) return kept;
  }
  const token = await passwordAndCode(email);
  writeState({ ...readState(), [email]: { ...readState()[email]!, token } });
  return token;
}

async function passwordAndCode(email: string): Promise<string> {
  const login = () => call<LoginAnswer>('/login', { body: { email, password: OPERATOR_PASSWORD } });
  let reply = await login();
  if (reply.code !== 0) {
    // First file in this run to need this operator: they do not exist yet.
    const since = Date.now();
    await must(`/sendMail?email=${encodeURIComponent(email)}&type=register`);
    const code = await waitForCode(mailDir(), email, since);
    await must('/register', { body: { email, password: OPERATOR_PASSWORD, code, nickname: 'Operator' } });
    reply = await login();
  }
  if (reply.code !== 0) throw new Error(`operator login: ${reply.code} ${reply.message}`);
  if ('token' in reply.data) {
    // No second factor yet: enrol one, and make this account an operator unless it is the admin.
    const token = reply.data.tokenHead + reply.data.token;
    await enrolAuthenticator(email, token);
    if (email !== E2E_OPERATOR_EMAIL) {
      const me = await must<{ uid: number; role: string }>('/getCurrentUser', { token });
      if (me.role !== 'operator') {
        await must(`/admin/operators/${me.uid}/roles`, {
          token: await operatorToken(),
          body: { roles: ['support', 'finance', 'admin'], reason: 'e2e: second operator' },
        });
      }
    }
    reply = await login();
    if (reply.code !== 0 || 'token' in reply.data) throw new Error(`operator login after enrolment: ${reply.code} ${reply.message}`);
  }
  const second = await must<{ token: string; tokenHead: string }>('/login/2fa', {
    body: { challenge: reply.data.secondFactor.challenge, code: await operatorCode(email) },
  });
  return second.tokenHead + second.token;
}

/** The operator's stored-token form (registered once per server, signed in once per file). */
export function operatorToken(): Promise<string> {
  operator ??= signInOperator(E2E_OPERATOR_EMAIL);
  return operator;
}

/** Credits `amount` of `currency` to a user through POST /api/admin/ledger/adjust. */
export async function fund(email: string, amount: string, currency = 'USDT'): Promise<void> {
  await must('/admin/ledger/adjust', {
    token: await operatorToken(),
    headers: { 'idempotency-key': randomUUID() },
    body: { email, currency, amount, direction: 'credit', reason: 'e2e funding' },
  });
}

let currencies: Promise<Currency[]> | null = null;
export async function currencyId(code: string): Promise<number> {
  currencies ??= must<Currency[]>('/currency/list');
  const found = (await currencies).find((c) => c.code === code);
  if (!found) throw new Error(`no currency ${code}`);
  return found.id;
}

/** A transfer made through the API, to give a user some history. */
export async function apiTransfer(from: TestUser, toEmail: string, amount: string, memo?: string) {
  return must<{ id: number; reference: number }>('/transfer/transferByEmail', {
    token: from.token,
    headers: { 'idempotency-key': randomUUID() },
    body: { email: toEmail, currencyId: await currencyId('USDT'), amount, ...(memo ? { memo } : {}) },
  });
}

/** A swap made through the API at the current rate. */
export async function apiSwap(user: TestUser, from: string, to: string, amount: string) {
  return must<{ id: number; entryId: number; toAmount: string; fee: string }>('/swap/apply', {
    token: user.token,
    headers: { 'idempotency-key': randomUUID() },
    body: { fromCurrencyId: await currencyId(from), toCurrencyId: await currencyId(to), amount },
  });
}

/**
 * An ETH withdrawal made through the API on the local chain's ETH network, confirmed with the
 * mailed code and a fresh fee quote (above the network's review threshold it waits in review).
 */
export async function apiWithdrawEth(user: TestUser, amount: string, address: string) {
  const eth = (await must<Network[]>('/currency/onchain')).find((n) => n.code === 'ETH')!;
  const since = Date.now();
  await must(`/sendMail?email=${encodeURIComponent(user.email)}&type=withdraw`, { token: user.token });
  return must<WithdrawRecord>('/withdraw/apply', {
    token: user.token,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      currencyId: await currencyId('ETH'),
      networkId: eth.id,
      address,
      amount,
      code: await waitForCode(mailDir(), user.email, since),
      quoteId: await feeQuoteId(user.token, eth.id),
    },
  });
}

/** Opens the amount field's numeric keypad, types `amount` key by key, and closes it. */
export async function typeAmount(page: Page, amount: string, field = 'amount-field') {
  await page.getByTestId(field).click();
  const keyboard = page.locator('.adm-number-keyboard-popup .adm-number-keyboard');
  await keyboard.waitFor();
  for (const key of amount) await keyboard.locator(`.adm-number-keyboard-key[aria-label="${key}"]`).click();
  await keyboard.locator('.adm-number-keyboard-key-ok').click();
  await keyboard.waitFor({ state: 'hidden' });
}

/** Clears the amount field through the keypad's backspace. */
export async function clearAmount(page: Page, length: number, field = 'amount-field') {
  await page.getByTestId(field).click();
  const keyboard = page.locator('.adm-number-keyboard-popup .adm-number-keyboard');
  await keyboard.waitFor();
  for (let i = 0; i < length; i += 1) await keyboard.locator('.adm-number-keyboard-key-bs').click();
  await keyboard.locator('.adm-number-keyboard-key-ok').click();
  await keyboard.waitFor({ state: 'hidden' });
}

/**
 * A page that prefers reduced motion: the money screens then skip antd's slide-in
 * animations (see apps/web/src/components/wallet/motion.ts), which keeps the suite fast.
 */
export async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  return page;
}

/**
 * No toast (nor its plain stand-in) is on screen once what the last reply caused has rendered.
 * Call it after that reply's own outcome is on screen (the refusal under its field): the API
 * client raises a toast as the reply arrives, before the field hears of it, and the toast's code
 * is in memory by then (lib/notify.ts preloads it; the build puts it in the pages' shared chunk),
 * so a toast would render with the refusal or in the frames after it.
 */
export async function noPopUp(page: Page): Promise<void> {
  await rendered(page);
  const count = await page.locator('.adm-toast-main, .app-toast').count();
  if (count !== 0)
    throw new Error(`expected no pop-up, found ${count}: ${await page.locator('.adm-toast-main, .app-toast').first().textContent()}`);
}
