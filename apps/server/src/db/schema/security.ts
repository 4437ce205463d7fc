import type { HoldReason } from '@coffer/contract';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/**
 * Withdrawal holds after a credential change (migration 0029; the reasons are the contract's
 * holdReason): until ends_at, withdrawals wait and a user's transfers since the hold began
 * may not add up past currencies.hold_free_transfer, unless the owner ended it early with the
 * second factor (cancelled_at). Never deleted.
 */
export const securityHolds = pgTable(
  'security_holds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    reason: text('reason').$type<HoldReason>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    index('security_holds_user_idx').on(t.userId, t.endsAt),
    check('security_holds_period_check', sql`${t.endsAt} >= ${t.createdAt}`),
  ],
);
