import { createApiClient, type Envelope } from '@coffer/api-client';
import { ErrorCode } from '@coffer/contract/errors';
import { i18n } from './i18n';
import { tokenStore } from './session';

/**
 * The console's side of the shared client (@coffer/api-client, decision 062): its own token
 * store, the interface language, and what a refusal of the session means to the console.
 */
export const API_BASE = '/api';
/** Audits and payouts can take a while on a big ledger. */
export const API_TIMEOUT_MS = 60_000;

/**
 * Called when the session is gone (2001, with the server's message saying why) or the operator
 * lacks a second factor (403 with 3045 / 3046): set by the app shell. A 403 for a role the
 * operator does not hold (4003) is only the call's refusal, shown where it was made.
 */
let onSignedOut: (reason: 'expired' | 'second-factor', message: string) => void = () => {};
export function setSignedOutHandler(handler: typeof onSignedOut) {
  onSignedOut = handler;
}

const SECOND_FACTOR_CODES: readonly number[] = [ErrorCode.OPERATOR_SECOND_FACTOR_REQUIRED, ErrorCode.OPERATOR_SESSION_NOT_VERIFIED];

function sessionHeaders(): Record<string, string> {
  const token = tokenStore.get();
  return token ? { 'accept-language': i18n.language, 'x-token': token } : { 'accept-language': i18n.language };
}

function onEnvelope(envelope: Envelope<unknown>, sent: Readonly<Record<string, string>>) {
  // An answer for a session the console already left (signed out while the call was in flight)
  // says nothing about the current one: it must not sign out again or replace the reason shown.
  const token = sent['x-token'];
  if (token === undefined || tokenStore.get() !== token) return;
  if (envelope.code === ErrorCode.NOT_SIGNED_IN) onSignedOut('expired', envelope.message);
  else if (SECOND_FACTOR_CODES.includes(envelope.code)) onSignedOut('second-factor', envelope.message);
}

export const api = createApiClient({ baseUrl: API_BASE, timeoutMs: API_TIMEOUT_MS, headers: sessionHeaders, onEnvelope });
