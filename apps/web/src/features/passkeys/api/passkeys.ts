import type { PasskeyItem, PasskeyOptionsData } from '@coffer/contract/passkeys';
import type { ReauthData } from '@coffer/contract/security';
import { apiGet, apiPost } from '../../../lib/api-client';
import { browserWebAuthn } from '../../../lib/sign-in';

export const listPasskeys = () => apiGet<PasskeyItem[]>('/passkeys');
/** `code`: the authenticator or a recovery code, needed when two-factor is on. */
export const removePasskey = (id: number, code?: string) => apiPost<null>('/passkeys/remove', { id, ...(code && { code }) });

/** Creates a passkey on this device (the browser asks for the screen lock) and registers it. */
export async function addPasskey(code?: string): Promise<PasskeyItem> {
  const { startRegistration } = await browserWebAuthn();
  const { challenge, options } = await apiPost<PasskeyOptionsData>('/passkeys/register/options', code ? { code } : {});
  const response = await startRegistration({ optionsJSON: options as never });
  return apiPost<PasskeyItem>('/passkeys/register', { challenge, response });
}

/** Until when this session's re-authentication lasts (adding a passkey needs one within 5 minutes). */
export const getReauth = () => apiGet<ReauthData>('/security/reauth');
export const reauthWithPassword = (password: string) => apiPost<ReauthData>('/security/reauth', { password });

export async function passkeysSupported(): Promise<boolean> {
  const { browserSupportsWebAuthn } = await browserWebAuthn();
  return browserSupportsWebAuthn();
}
