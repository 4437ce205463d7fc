import { z } from 'zod';
import { loginData, PASSWORD_MAX } from './auth.ts';
import { isSecondFactorCode } from './rules.ts';

/** Authenticator (TOTP, RFC 6238) codes: 6 digits, 30 s steps, SHA-1 (what every app supports). */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** A sign-in that still needs its second factor must finish within this time. */
export const SECOND_FACTOR_CHALLENGE_SECONDS = 300;

export const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'code must be 6 digits');
export { RECOVERY_CODE_RE } from './rules.ts';
/** Where a second factor is asked: an authenticator code, or one of the recovery codes (used once). */
export const secondFactorCode = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => isSecondFactorCode(v), 'an authenticator code (6 digits) or a recovery code');

/** Enrolment: the secret is shown here once, as the otpauth URI (QR) and as the manual key. */
export const twoFactorSetupData = z.object({
  secret: z.string().describe('base32 key for manual entry'),
  uri: z.string().describe('otpauth://totp/... for the QR code'),
});
export type TwoFactorSetupData = z.infer<typeof twoFactorSetupData>;

/**
 * The password is needed unless this session re-authenticated within REAUTH_SECONDS (2013
 * without either, 2002 wrong): a stolen session alone cannot turn two-factor on with its own
 * authenticator and lock the owner out.
 */
export const twoFactorEnableBody = z.object({ code: totpCode, password: z.string().min(1).max(PASSWORD_MAX).optional() });
export type TwoFactorEnableBody = z.infer<typeof twoFactorEnableBody>;
export const twoFactorEnableData = z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT) });
export type TwoFactorEnableData = z.infer<typeof twoFactorEnableData>;

export const twoFactorDisableBody = z.object({ code: secondFactorCode });
export type TwoFactorDisableBody = z.infer<typeof twoFactorDisableBody>;

export const secondFactorMethod = z.enum(['totp', 'passkey']);
export type SecondFactorMethod = z.infer<typeof secondFactorMethod>;

/** /api/login's answer when the account has two-factor on: no session yet, a short-lived challenge. */
export const secondFactorRequired = z.object({
  secondFactor: z.object({
    challenge: z.string().describe('send it to /api/login/2fa with the code, within expiresIn seconds'),
    methods: z.array(secondFactorMethod),
    expiresIn: z.number().int(),
  }),
});
export type SecondFactorRequired = z.infer<typeof secondFactorRequired>;

export const loginAnswer = z.union([loginData, secondFactorRequired]);
export type LoginAnswer = z.infer<typeof loginAnswer>;

export const loginSecondFactorBody = z.object({ challenge: z.string().min(1).max(200), code: secondFactorCode });
export type LoginSecondFactorBody = z.infer<typeof loginSecondFactorBody>;
