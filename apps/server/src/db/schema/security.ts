import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/** Why a security hold was opened (migration 0029). */
export const SECURITY_HOLD_REASONS = [
  'password_reset',
  'password_changed',
  'two_factor_disabled',
  'passkey_added',
  'passkey_removed',
  'new_device',
] as const;
export type SecurityHoldReason = (typeof SECURITY_HOLD_REASONS)[number];

/**
 * Withdrawal holds after a credential change (migration 0029): until ends_at, withdrawals wait
 * and transfers above currencies.hold_free_transfer are refused, unless the owner ended it
 * early with the second factor (cancelled_at). Never deleted.
 */
export const securityHolds = pgTable(
  'security_holds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    reason: text('reason').$type<SecurityHoldReason>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    index('security_holds_user_idx').on(t.userId, t.endsAt),
    check('security_holds_period_check', sql`${t.endsAt} >= ${t.createdAt}`),
  ],
);
