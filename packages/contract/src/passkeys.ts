import { z } from 'zod';
import { id, safeText } from './common.ts';
import { secondFactorCode } from './two-factor.ts';

export const PASSKEY_NAME_MAX = 40;

export const passkeyItem = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeyItem = z.infer<typeof passkeyItem>;

/** WebAuthn JSON as @simplewebauthn/browser takes (options) and gives (responses) it. */
const webauthnJson = z.record(z.string(), z.unknown());

/** Options for navigator.credentials and the challenge token to send back with the answer. */
export const passkeyOptionsData = z.object({ challenge: z.string(), options: webauthnJson });
export type PasskeyOptionsData = z.infer<typeof passkeyOptionsData>;

export const passkeyRegisterBody = z.object({
  challenge: z.string().min(1).max(200),
  response: webauthnJson,
  name: safeText({ min: 1, max: PASSKEY_NAME_MAX }).optional(),
});
export type PasskeyRegisterBody = z.infer<typeof passkeyRegisterBody>;

/**
 * Adding a passkey needs a recent re-authentication (2013); with two-factor on, a code here is
 * one. Removing one needs a code with two-factor on (2006).
 */
export const passkeyRegisterOptionsBody = z.object({ code: secondFactorCode.optional() });
export type PasskeyRegisterOptionsBody = z.infer<typeof passkeyRegisterOptionsBody>;

export const passkeyRemoveBody = z.object({ id, code: secondFactorCode.optional() });
export type PasskeyRemoveBody = z.infer<typeof passkeyRemoveBody>;

/**
 * Sign-in with a passkey. Without `challenge`: passwordless (any passkey of any account).
 * With the second-factor challenge of /api/login: a passkey of that account, instead of a code.
 */
export const passkeyLoginOptionsBody = z.object({ challenge: z.string().min(1).max(200).optional() });
export type PasskeyLoginOptionsBody = z.infer<typeof passkeyLoginOptionsBody>;

export const passkeyLoginBody = z.object({ challenge: z.string().min(1).max(200), response: webauthnJson });
export type PasskeyLoginBody = z.infer<typeof passkeyLoginBody>;
