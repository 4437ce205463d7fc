import type { Page } from 'playwright-core';
import enUS from '../../apps/console/src/locales/en-US.json';
import zhCN from '../../apps/console/src/locales/zh-CN.json';
import type { Lang } from './app';
import { E2E_OPERATOR_EMAIL } from './harness';
import { OPERATOR_PASSWORD, operatorCode, signInOperator } from './wallet-support';

type Tree = { [key: string]: string | Tree };
const texts: Record<Lang, Tree> = { 'zh-CN': zhCN, 'en-US': enUS };

/**
 * A console text as the operator reads it, with {{name}} filled in. Keys are dotted paths;
 * under `labels` the last part is a code that may hold dots itself (`labels.auditAction.user.link`).
 */
export function ct(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  const [group, sub, ...rest] = key.split('.');
  let node: string | Tree | undefined = texts[lang];
  const parts = group === 'labels' ? [group, sub, rest.join('.')] : key.split('.');
  for (const part of parts) node = typeof node === 'object' && part !== undefined ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no console text ${key} in ${lang}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** The console's sign-in form up to the authenticator step: e-mail, password, "sign in". */
export async function submitPassword(page: Page, lang: Lang, email: string, password: string) {
  await page.goto('/console/login');
  await page.getByLabel(ct(lang, 'auth.email')).fill(email);
  await page.getByLabel(ct(lang, 'auth.password')).fill(password);
  await page.getByRole('button', { name: ct(lang, 'auth.signIn'), exact: true }).click();
}

/** Where the console keeps its session token (apps/console/src/lib/session.ts). */
export const CONSOLE_TOKEN_KEY = 'coffer.console.token';

/**
 * An operator signs into the console as they must (decision 045): password, then a fresh
 * authenticator code; registers and enrols them first on a fresh server. Ends on the dashboard.
 * A code is good once per 30 s step, so this may wait for one: journeys that are not about
 * signing in use openConsoleAs.
 */
export async function signInConsoleWithCode(page: Page, lang: Lang, email = E2E_OPERATOR_EMAIL) {
  await signInOperator(email);
  // The code before the form: getting one may wait for a fresh step, and the code form should
  // not stand open that long.
  const code = await operatorCode(email);
  await submitPassword(page, lang, email, OPERATOR_PASSWORD);
  await page.getByLabel(ct(lang, 'auth.code')).fill(code);
  await page.getByRole('button', { name: ct(lang, 'auth.verify'), exact: true }).click();
  await page.getByRole('heading', { name: ct(lang, 'nav.dashboard') }).waitFor();
}

/**
 * Opens the console on the dashboard in the run's verified session of this operator (the one
 * signInOperator signed in with password and code), as the console stores it after its own
 * sign-in. No code to wait for. Never sign this session out: the run's API calls share it.
 */
export async function openConsoleAs(page: Page, lang: Lang, email = E2E_OPERATOR_EMAIL) {
  const token = await signInOperator(email);
  await page.goto('/console/login');
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [CONSOLE_TOKEN_KEY, token] as const);
  await page.goto('/console/');
  await page.getByRole('heading', { name: ct(lang, 'nav.dashboard') }).waitFor();
}
