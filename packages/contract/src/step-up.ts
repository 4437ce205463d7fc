import { z } from 'zod';
import { secondFactorCode } from './two-factor.ts';

/**
 * The step-up policy's wire shape (decision 033). With two-factor on, an action that moves value
 * out of the account (withdrawal, transfer) — and a swap when the user opted in — carries one
 * second factor: `totp`, an authenticator code or a recovery code, or `stepUpToken`, what
 * /api/stepup/passkey answered for a passkey assertion. Without it: 2006; wrong or used: 2007
 * (code) or 2008 (token).
 */
export const STEP_UP_ACTIONS = ['withdraw', 'transfer', 'swap'] as const;
export type StepUpAction = (typeof STEP_UP_ACTIONS)[number];

/** A passkey step-up token is good for one action within this time. */
export const STEP_UP_TOKEN_SECONDS = 120;

const stepUpToken = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{16,200}$/, 'a step-up token from /api/stepup/passkey');

/** The fields a guarded action's body adds: at most one of them is needed. */
export const stepUpProof = {
  /** An authenticator code (6 digits) or one of the recovery codes. */
  totp: secondFactorCode.optional(),
  /** The single-use token of a passkey assertion (/api/stepup/passkey). */
  stepUpToken: stepUpToken.optional(),
};
export const stepUpProofBody = z.object(stepUpProof);
export type StepUpProof = z.infer<typeof stepUpProofBody>;

export const stepUpTokenData = z.object({
  stepUpToken: z.string(),
  expiresIn: z.number().int().describe('seconds'),
});
export type StepUpTokenData = z.infer<typeof stepUpTokenData>;

/** Swaps ask for the second factor too (on needs two-factor on; off needs the factor). */
export const stepUpSwapsBody = z.object({ enabled: z.boolean(), ...stepUpProof });
export type StepUpSwapsBody = z.infer<typeof stepUpSwapsBody>;
