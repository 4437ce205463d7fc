import type { LoginData } from '@coffer/contract/auth';
import type { PasskeyOptionsData } from '@coffer/contract/passkeys';
import type { LoginSecondFactorBody } from '@coffer/contract/two-factor';
import { ErrorCode } from '@coffer/contract/errors';
import { apiPost } from './api-client';

/*
 * The second steps of a sign-in, shared by the sign-in page (features/auth) and the features
 * that set them up (features/passkeys, features/two-factor). The HTTP layer stores the session
 * token from the reply, as for /login.
 */

/** The browser side of WebAuthn loads only when a passkey is used. */
export const browserWebAuthn = () => import('@simplewebauthn/browser');

/** Finishes a password sign-in with the authenticator (or a recovery) code; a wrong one is shown under the field. */
export const loginSecondFactor = (body: LoginSecondFactorBody) =>
  apiPost<LoginData>('/login/2fa', body, { fieldCodes: [ErrorCode.WRONG_SECOND_FACTOR] });

/**
 * Signs in with a passkey: passwordless without `challenge`, or as the second step of a
 * password sign-in with its challenge.
 */
export async function signInWithPasskey(challenge?: string): Promise<LoginData> {
  const { startAuthentication } = await browserWebAuthn();
  const start = await apiPost<PasskeyOptionsData>('/login/passkey/options', challenge ? { challenge } : {});
  const response = await startAuthentication({ optionsJSON: start.options as never });
  return apiPost<LoginData>('/login/passkey', { challenge: start.challenge, response });
}
