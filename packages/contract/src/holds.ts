import { z } from 'zod';
import { isoTime } from './common.ts';
import { secondFactorCode } from './two-factor.ts';

/** Why a withdrawal hold was opened (the security_holds table allows these). */
export const holdReason = z.enum([
  'password_reset',
  'password_changed',
  'two_factor_disabled',
  'passkey_added',
  'passkey_removed',
  'new_device',
]);
export type HoldReason = z.infer<typeof holdReason>;

/** The hold in force: withdrawals wait until endsAt (docs/security.md, "Withdrawal hold"). */
export const securityHold = z.object({
  id: z.number().int(),
  reason: holdReason,
  createdAt: isoTime,
  endsAt: isoTime,
  /** Whole seconds until endsAt, by the server's clock (the page counts down from it). */
  secondsLeft: z.number().int().min(0),
});
export type SecurityHold = z.infer<typeof securityHold>;

export const securityHoldData = z.object({
  /** The active hold that ends last, or null. */
  hold: securityHold.nullable(),
  /** Ending it early needs the second factor: false for a user without one (they wait). */
  canCancel: z.boolean(),
});
export type SecurityHoldData = z.infer<typeof securityHoldData>;

export const securityHoldCancelBody = z.object({ code: secondFactorCode });
export type SecurityHoldCancelBody = z.infer<typeof securityHoldCancelBody>;
