import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { currencies, journalEntries } from './ledger.ts';

const money = (name: string) => numeric(name, { precision: 38, scale: 18 });

/**
 * A user-to-user transfer inside Coffer: the business record of one journal entry
 * (written by coffer_transfer_apply() in the same transaction as its postings).
 */
export const transfers = pgTable(
  'transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign key since drizzle/0026 (decision 030): the audit and a trigger keep the reference.
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    // Users and currency without a foreign key (decision 028, drizzle/0024): a per-row key check
    // locks the referenced rows on every transfer; the audit checks these references instead.
    fromUserId: bigint('from_user_id', { mode: 'number' }).notNull(),
    toUserId: bigint('to_user_id', { mode: 'number' }).notNull(),
    currencyId: integer('currency_id').notNull(),
    amount: money('amount').notNull(),
    memo: text('memo'),
    /** How the sender named the recipient: 'email' or 'uid'. */
    via: text('via').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('transfers_entry_key').on(t.entryId),
    index('transfers_from_idx').on(t.fromUserId, t.id),
    index('transfers_to_idx').on(t.toUserId, t.id),
    check('transfers_amount_check', sql`${t.amount} > 0`),
    check('transfers_not_self_check', sql`${t.fromUserId} <> ${t.toUserId}`),
    check('transfers_via_check', sql`${t.via} in ('email', 'uid')`),
  ],
);

/**
 * An operator's correction of a user's available balance against the system adjustments
 * account: who did it and why, next to the journal entry that moved the money.
 */
export const adjustments = pgTable(
  'adjustments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => journalEntries.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    /** Signed: credit > 0, debit < 0 (as seen from the user's account). */
    amount: money('amount').notNull(),
    reason: text('reason').notNull(),
    /** Who: an operator's e-mail for the API, "cli:<os user>" for the command line. */
    actor: text('actor').notNull(),
    actorUserId: bigint('actor_user_id', { mode: 'number' }).references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('adjustments_entry_key').on(t.entryId),
    index('adjustments_user_idx').on(t.userId, t.id),
    check('adjustments_amount_check', sql`${t.amount} <> 0`),
  ],
);
