import type { Envelope } from '@coffer/contract/envelope';
import { ErrorCode } from '@coffer/contract/errors';
import { i18n } from './i18n';
import { tokenStore } from './session';

export const API_BASE = '/api';
/** Audits and payouts can take a while on a big ledger. */
export const API_TIMEOUT_MS = 60_000;

/** A refusal from the API (envelope code != 0, or an HTTP error with an envelope). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Called when the session is gone (2001, with the server's message saying why) or the operator
 * lacks a second factor (403 with 3045 / 3046): set by the app shell. A 403 for a role the
 * operator does not hold (4003) is only the call's refusal, shown where it was made.
 */
let onSignedOut: (reason: 'expired' | 'second-factor', message: string) => void = () => {};
export function setSignedOutHandler(handler: typeof onSignedOut) {
  onSignedOut = handler;
}

type Query = Record<string, string | number | boolean | undefined | null>;

function urlOf(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
}

async function request<T>(method: 'GET' | 'POST', path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { 'accept-language': i18n.language, ...opts.headers };
  const token = tokenStore.get();
  if (token) headers['x-token'] = token;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const response = await fetch(urlOf(path, opts.query), { method, headers, body, signal: AbortSignal.timeout(API_TIMEOUT_MS) });
  const envelope = (await response.json().catch(() => null)) as Envelope<T> | null;
  if (!envelope || typeof envelope.code !== 'number') throw new ApiError(-1, response.statusText || 'network', response.status);
  // An answer for a session the console already left (signed out while the call was in flight)
  // says nothing about the current one: it must not sign out again or replace the reason shown.
  const stillOurs = token !== null && tokenStore.get() === token;
  if (stillOurs && envelope.code === ErrorCode.NOT_SIGNED_IN) onSignedOut('expired', envelope.message);
  else if (
    stillOurs &&
    (envelope.code === ErrorCode.OPERATOR_SECOND_FACTOR_REQUIRED || envelope.code === ErrorCode.OPERATOR_SESSION_NOT_VERIFIED)
  ) {
    onSignedOut('second-factor', envelope.message);
  }
  if (envelope.code !== ErrorCode.OK) throw new ApiError(envelope.code, envelope.message, response.status);
  return envelope.data;
}

export const apiGet = <T>(path: string, query?: Query) => request<T>('GET', path, { query });
export const apiPost = <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
  request<T>('POST', path, { body: body ?? {}, headers });
export const apiUpload = <T>(path: string, form: FormData) => request<T>('POST', path, { body: form });

/** One key per submit (the form's lifetime), so a retried submit is not applied twice. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
