import { z } from 'zod';
import { isoTime, pageRequest, pageResponse, safeText } from './common.ts';

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

/** One sign-in attempt to the account (right or wrong password; sign-up counts as one). */
export const signInAttempt = z.object({
  id: z.number().int(),
  success: z.boolean(),
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
  'withdrawal_hold',
  'address_book_added',
  'address_book_removed',
]);
export type SecurityEventKind = z.infer<typeof securityEventKind>;
