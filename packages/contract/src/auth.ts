import { z } from 'zod';
import { safeText } from './common.ts';

import { EMAIL_CODE_LENGTH, EMAIL_CODE_RESEND_SECONDS, NICKNAME_MAX } from './rules.ts';

export { EMAIL_CODE_LENGTH, EMAIL_CODE_RESEND_SECONDS, NICKNAME_MAX };
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const email = z.string().trim().toLowerCase().email().max(254);
/**
 * A password is a secret, not text anyone reads: it is only ever hashed (argon2), never stored,
 * shown or logged, so any character is allowed (a rule now could lock out existing accounts).
 */
export const password = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
export const emailCode = z.string().regex(new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`));
export const nickname = safeText({ min: 1, max: NICKNAME_MAX });

export const mailType = z.enum(['register', 'reset', 'withdraw']);
export type MailType = z.infer<typeof mailType>;

export const sendMailQuery = z.object({ email, type: mailType });
export type SendMailQuery = z.infer<typeof sendMailQuery>;

export const registerBody = z.object({ email, password, code: emailCode, nickname: nickname.optional() });
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({ email, password: z.string().min(1).max(PASSWORD_MAX) });
export type LoginBody = z.infer<typeof loginBody>;

export const loginData = z.object({ token: z.string(), tokenHead: z.literal('Bearer ') });
export type LoginData = z.infer<typeof loginData>;

/** A reset by e-mail removes the passkeys added within this many days, unless the owner unticks it. */
export const RESET_REMOVES_PASSKEYS_DAYS = 30;
/**
 * A reset always signs out every session; `removeRecentPasskeys` (default yes) also removes the
 * passkeys added in the last RESET_REMOVES_PASSKEYS_DAYS days: a thief's passkey goes with them.
 */
export const resetPasswordBody = z.object({ email, code: emailCode, password, removeRecentPasskeys: z.boolean().default(true) });
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

/** Avatars are shipped presets ("preset:3") or a small data: image URL. */
export const AVATAR_MAX_LENGTH = 200_000;
export const avatar = z
  .string()
  .max(AVATAR_MAX_LENGTH)
  .regex(/^(preset:\d{1,2}|data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+)$/);

export const updateUserInfoBody = z
  .object({ nickname: nickname.optional(), avatar: avatar.optional() })
  .refine((v) => v.nickname !== undefined || v.avatar !== undefined, 'nothing to update');
export type UpdateUserInfoBody = z.infer<typeof updateUserInfoBody>;

export const currentUser = z.object({
  uid: z.number().int(),
  email: z.string(),
  nickname: z.string(),
  avatar: z.string().nullable(),
  language: z.string().nullable(),
  role: z.enum(['user', 'operator']),
  /** Authenticator codes are on: withdrawals and sign-in ask for one. */
  twoFactor: z.boolean(),
  /** Swaps ask for the second factor too (the user's choice; decision 033). */
  stepUpSwaps: z.boolean(),
  createdAt: z.string(),
});
export type CurrentUser = z.infer<typeof currentUser>;
