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

/** NUMERIC(38,18): exact, wide enough for 18-decimal tokens; read back as strings. */
const money = (name: string) => numeric(name, { precision: 38, scale: 18 });

export const currencies = pgTable(
  'currencies',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** The most decimals an amount of this currency may carry (more is refused, not rounded). */
    decimals: integer('decimals').notNull(),
    /** Decimals shown in lists, and what a swap's result and fee round to (migration 0057). */
    displayDecimals: integer('display_decimals').notNull().default(8),
    icon: text('icon').notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    /** Smallest and largest single transfer; null means no bound beyond the ledger's. */
    transferMin: money('transfer_min'),
    transferMax: money('transfer_max'),
    /** What a user under a security hold may still send in all since it began (migration 0029). */
    holdFreeTransfer: money('hold_free_transfer').notNull().default('0'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('currencies_code_key').on(t.code),
    check('currencies_decimals_check', sql`${t.decimals} between 0 and 18`),
    check('currencies_display_decimals_check', sql`${t.displayDecimals} between 0 and 18`),
  ],
);

/**
 * One account per (owner, currency, kind). User kinds: available, frozen. System kinds
 * (user_id null): world, house, fees, adjustments. `min_balance` is the floor the ledger
 * enforces on every posting: 0 for user accounts, -limit for the house, null = unbounded.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    kind: text('kind').notNull(),
    balance: money('balance').notNull().default('0'),
    minBalance: money('min_balance'),
    /** set only on a 'float' account: the operator's float is per network (docs/decisions/038) */
    networkId: integer('network_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounts_user_key').on(t.userId, t.currencyId, t.kind).where(sql`${t.userId} is not null`),
    uniqueIndex('accounts_system_key').on(t.currencyId, t.kind).where(sql`${t.userId} is null and ${t.networkId} is null`),
    uniqueIndex('accounts_float_key').on(t.networkId).where(sql`${t.networkId} is not null`),
    check(
      'accounts_kind_check',
      sql`(${t.userId} is not null and ${t.kind} in ('available', 'frozen')) or (${t.userId} is null and ${t.kind} in ('world', 'house', 'fees', 'adjustments', 'prizes', 'float'))`,
    ),
    check('accounts_network_check', sql`(${t.kind} = 'float') = (${t.networkId} is not null)`),
    check('accounts_user_floor_check', sql`${t.userId} is null or (${t.minBalance} = 0 and ${t.balance} >= 0)`),
    check('accounts_floor_check', sql`${t.minBalance} is null or ${t.balance} >= ${t.minBalance}`),
  ],
);

/**
 * A journal entry groups postings that sum to zero per currency. Entries are never
 * edited; a correction is a new, reversing entry. (user_id, idempotency_key) makes a
 * retried request land once; request_hash tells a replay from a reused key (3010).
 * `refusal` set: the key's request was refused with this SQLSTATE (kept so that a retry
 * hears the same refusal, decision 012); such an entry has no postings and no business row.
 */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    // No foreign key (decision 028, drizzle/0024): the audit checks it (ledger_row_references_exist).
    userId: bigint('user_id', { mode: 'number' }),
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    memo: text('memo'),
    refusal: text('refusal'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('journal_entries_idempotency_key').on(t.userId, t.idempotencyKey)],
);

/** Signed amounts (credit > 0, debit < 0); balance_after makes a statement a plain read. */
export const postings = pgTable(
  'postings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign keys since drizzle/0026 (decision 030): the audit and a trigger keep the references.
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    currencyId: integer('currency_id').notNull(),
    amount: money('amount').notNull(),
    balanceAfter: money('balance_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('postings_account_idx').on(t.accountId, t.id),
    index('postings_entry_idx').on(t.entryId),
    check('postings_nonzero_check', sql`${t.amount} <> 0`),
  ],
);
