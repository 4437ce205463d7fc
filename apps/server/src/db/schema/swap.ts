import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { currencies } from './ledger.ts';

/** Same exact type as the ledger's amounts; rates use it too (18 decimals). */
const money = (name: string) => numeric(name, { precision: 38, scale: 18 });

/**
 * Operator-configured swap directions. `mid_rate` is units of `to` per unit of `from`
 * (the operator table's price; an external feed may replace it at read time); the user
 * gets mid × (1 − spread), then pays `fee_bps` in the currency named by `fee_currency`.
 */
export const swapPairs = pgTable(
  'swap_pairs',
  {
    id: serial('id').primaryKey(),
    fromCurrencyId: integer('from_currency_id')
      .notNull()
      .references(() => currencies.id),
    toCurrencyId: integer('to_currency_id')
      .notNull()
      .references(() => currencies.id),
    midRate: money('mid_rate').notNull(),
    spreadBps: integer('spread_bps').notNull().default(0),
    feeBps: integer('fee_bps').notNull().default(0),
    feeCurrency: text('fee_currency').notNull().default('to'),
    minAmount: money('min_amount'),
    maxAmount: money('max_amount'),
    enabled: boolean('enabled').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('swap_pairs_direction_key').on(t.fromCurrencyId, t.toCurrencyId),
    check('swap_pairs_distinct_check', sql`${t.fromCurrencyId} <> ${t.toCurrencyId}`),
    check('swap_pairs_rate_check', sql`${t.midRate} > 0`),
    check('swap_pairs_bps_check', sql`${t.spreadBps} between 0 and 5000 and ${t.feeBps} between 0 and 5000`),
    check('swap_pairs_fee_currency_check', sql`${t.feeCurrency} in ('from', 'to')`),
  ],
);

/** A price promised to one user for a short time; used at most once. */
export const swapQuotes = pgTable(
  'swap_quotes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    fromCurrencyId: integer('from_currency_id')
      .notNull()
      .references(() => currencies.id),
    toCurrencyId: integer('to_currency_id')
      .notNull()
      .references(() => currencies.id),
    fromAmount: money('from_amount').notNull(),
    toAmount: money('to_amount').notNull(),
    rate: money('rate').notNull(),
    midRate: money('mid_rate').notNull(),
    spreadBps: integer('spread_bps').notNull(),
    feeBps: integer('fee_bps').notNull(),
    fee: money('fee').notNull(),
    feeCurrencyId: integer('fee_currency_id')
      .notNull()
      .references(() => currencies.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('swap_quotes_user_idx').on(t.userId, t.id)],
);

/** The business record of a swap: exactly one journal entry, with the price it got. */
export const swaps = pgTable(
  'swaps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign key since drizzle/0026 (decision 030): the audit and a trigger keep the reference.
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    // User and currencies without a foreign key (decision 028, drizzle/0024), as on transfers:
    // the audit checks these references (ledger_row_references_exist).
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    quoteId: bigint('quote_id', { mode: 'number' }).references(() => swapQuotes.id),
    fromCurrencyId: integer('from_currency_id').notNull(),
    toCurrencyId: integer('to_currency_id').notNull(),
    fromAmount: money('from_amount').notNull(),
    toAmount: money('to_amount').notNull(),
    rate: money('rate').notNull(),
    midRate: money('mid_rate').notNull(),
    spreadBps: integer('spread_bps').notNull(),
    feeBps: integer('fee_bps').notNull(),
    fee: money('fee').notNull(),
    feeCurrencyId: integer('fee_currency_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('swaps_entry_key').on(t.entryId),
    uniqueIndex('swaps_quote_key').on(t.quoteId),
    index('swaps_user_idx').on(t.userId, t.id),
  ],
);
