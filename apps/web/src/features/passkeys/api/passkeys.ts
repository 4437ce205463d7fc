import type { LoginData } from '@coffer/contract/auth';
import type { PasskeyItem, PasskeyOptionsData } from '@coffer/contract/passkeys';
import { apiGet, apiPost } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const passkeysQueryKey = queryKeys.passkeys;
export const listPasskeys = () => apiGet<PasskeyItem[]>('/passkeys');
/** `code`: the authenticator or a recovery code, needed when two-factor is on. */
export const removePasskey = (id: number, code?: string) => apiPost<null>('/passkeys/remove', { id, ...(code && { code }) });

/** The browser side of WebAuthn loads only when a passkey is used. */
const browserWebAuthn = () => import('@simplewebauthn/browser');

/** Creates a passkey on this device (the browser asks for the screen lock) and registers it. */
export async function addPasskey(code?: string): Promise<PasskeyItem> {
  const { startRegistration } = await browserWebAuthn();
  const { challenge, options } = await apiPost<PasskeyOptionsData>('/passkeys/register/options', code ? { code } : {});
  const response = await startRegistration({ optionsJSON: options as never });
  return apiPost<PasskeyItem>('/passkeys/register', { challenge, response });
}

/**
 * Signs in with a passkey: passwordless without `challenge`, or as the second step of a
 * password sign-in with its challenge. The HTTP layer stores the session from the reply.
 */
export async function signInWithPasskey(challenge?: string): Promise<LoginData> {
  const { startAuthentication } = await browserWebAuthn();
  const start = await apiPost<PasskeyOptionsData>('/login/passkey/options', challenge ? { challenge } : {});
  const response = await startAuthentication({ optionsJSON: start.options as never });
  return apiPost<LoginData>('/login/passkey', { challenge: start.challenge, response });
}

export async function passkeysSupported(): Promise<boolean> {
  const { browserSupportsWebAuthn } = await browserWebAuthn();
  return browserSupportsWebAuthn();
}
