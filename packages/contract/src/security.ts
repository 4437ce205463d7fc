import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './auth.ts';
import { isoTime, pageRequest, pageResponse, safeText } from './common.ts';
import { isSafeText } from './rules.ts';
import { secondFactorCode } from './two-factor.ts';

/** Longest anti-phishing phrase (after trimming). */
export const ANTI_PHISHING_MAX = 32;

/** One signed-in session of the user (not revoked, not expired). */
export const securitySession = z.object({
  id: z.number().int(),
  /** Short readable name parsed from the stored user agent ("Chrome on macOS"), or null. */
  device: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: isoTime,
  /** Updated at most once a minute per session; null before the first request after sign-in. */
  lastSeenAt: isoTime.nullable(),
  /** The session of the request asking. */
  current: z.boolean(),
});
export type SecuritySession = z.infer<typeof securitySession>;

export const securitySessionList = z.object({ list: z.array(securitySession) });
export type SecuritySessionList = z.infer<typeof securitySessionList>;

export const revokeOthersData = z.object({ revoked: z.number().int() });
export type RevokeOthersData = z.infer<typeof revokeOthersData>;

export const signInsBody = pageRequest;
export type SignInsBody = z.input<typeof signInsBody>;

/**
 * What a sign-in attempt was: a success (sign-up counts as one), a wrong password, or a right
 * password followed by a wrong second factor (authenticator, recovery code or passkey), which
 * means someone knows the password.
 */
export const signInKind = z.enum(['success', 'password_wrong', 'second_factor_wrong']);
export type SignInKind = z.infer<typeof signInKind>;

/** One sign-in attempt to the account. */
export const signInAttempt = z.object({
  id: z.number().int(),
  success: z.boolean(),
  kind: signInKind,
  ip: z.string().nullable(),
  device: z.string().nullable(),
  createdAt: isoTime,
});
export type SignInAttempt = z.infer<typeof signInAttempt>;

export const signInPage = pageResponse(signInAttempt);
export type SignInPage = z.infer<typeof signInPage>;

/** An empty phrase removes it. */
export const antiPhishingBody = z.object({ phrase: safeText({ max: ANTI_PHISHING_MAX }) });
export type AntiPhishingBody = z.infer<typeof antiPhishingBody>;

/** The phrase is never sent back whole: only its first and last character ("C••••e"). */
export const antiPhishingData = z.object({ set: z.boolean(), masked: z.string().nullable() });
export type AntiPhishingData = z.infer<typeof antiPhishingData>;

/** Shows the first and last character of a phrase, the rest as dots (at least 4). */
export function maskPhrase(phrase: string): string {
  const chars = Array.from(phrase);
  if (chars.length <= 2) return '•'.repeat(4);
  return `${chars[0]}${'•'.repeat(Math.max(4, chars.length - 2))}${chars.at(-1)}`;
}

/** What notifySecurityEvent mails about. */
export const securityEventKind = z.enum([
  'new_sign_in',
  'password_reset',
  'password_changed',
  'two_factor_enabled',
  'two_factor_disabled',
  'passkey_added',
  'passkey_removed',
  /** A right password, then a wrong second factor: someone knows the password. */
  'second_factor_wrong',
  'two_factor_reset_opened',
  'two_factor_reset_cancelled',
  'two_factor_reset_completed',
  'withdrawal_hold',
  'address_book_added',
  'address_book_removed',
]);
export type SecurityEventKind = z.infer<typeof securityEventKind>;

/**
 * A new password chosen in the security centre: the sign-up length rule, and no control,
 * invisible or bidirectional characters (a password typed again on another device must be
 * typeable; existing passwords are not held to this, so the current one is any string).
 * Never trimmed: spaces at either end are part of it.
 */
export const newPassword = z
  .string()
  .min(PASSWORD_MIN)
  .max(PASSWORD_MAX)
  .refine((v) => isSafeText(v), { message: 'must be one line without control, invisible or bidirectional characters' });

export const changePasswordBody = z.object({
  currentPassword: z.string().min(1).max(PASSWORD_MAX),
  newPassword,
  /** Authenticator or recovery code: required (2006) while two-factor is on. */
  code: secondFactorCode.optional(),
  /** Sign out every other session of the account (their event streams end at once). */
  signOutOthers: z.boolean().default(false),
});
export type ChangePasswordBody = z.input<typeof changePasswordBody>;

export const changePasswordData = z.object({ signedOut: z.number().int() });
export type ChangePasswordData = z.infer<typeof changePasswordData>;

/**
 * A recent re-authentication: the session proved the password (or, with two-factor on, an
 * authenticator or recovery code) within this time. Adding a passkey and turning two-factor on
 * need one, so a stolen session alone cannot add a way in (docs/decisions/035-*.md).
 */
export const REAUTH_SECONDS = 300;

/** Exactly one of the password or a second-factor code (authenticator or recovery). */
export const reauthBody = z
  .object({ password: z.string().min(1).max(PASSWORD_MAX).optional(), code: secondFactorCode.optional() })
  .refine((v) => (v.password === undefined) !== (v.code === undefined), 'the password or a code, one of them');
export type ReauthBody = z.input<typeof reauthBody>;
/** Until when this session's re-authentication lasts; null when it has none (or it ran out). */
export const reauthData = z.object({ validUntil: isoTime.nullable() });
export type ReauthData = z.infer<typeof reauthData>;

/** An operator-assisted two-factor reset waiting for its time (the owner may cancel it until then). */
export const twoFactorResetStatus = z.object({
  id: z.number().int(),
  createdAt: isoTime,
  /** When the authenticator and recovery codes are removed, unless cancelled before. */
  completesAt: isoTime,
});
export type TwoFactorResetStatus = z.infer<typeof twoFactorResetStatus>;
export const twoFactorResetData = z.object({ pending: twoFactorResetStatus.nullable() });
/**
 * The owner cancels with the second factor they still have: a reset they did not ask for is
 * stopped by whoever holds the authenticator, never by a stolen session alone.
 */
export const twoFactorResetCancelBody = z.object({ code: secondFactorCode });
export type TwoFactorResetCancelBody = z.infer<typeof twoFactorResetCancelBody>;
export type TwoFactorResetData = z.infer<typeof twoFactorResetData>;
