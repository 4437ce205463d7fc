import { sql } from 'drizzle-orm';
import { bigserial, bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SignInKind } from '@coffer/contract';

export const users = pgTable(
  'users',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    nickname: text('nickname').notNull(),
    avatar: text('avatar'),
    language: text('language'),
    role: text('role').notNull().default('user'),
    /** Shown in every mail to the user when set (modules/security; migration 0015). */
    antiPhishingPhrase: text('anti_phishing_phrase'),
    /** The user asked for the second factor on swaps too (migration 0029, decision 033). */
    stepUpSwaps: boolean('step_up_swaps').notNull().default(false),
    /** Withdrawals only to usable address-book entries (migration 0033). */
    withdrawWhitelistOnly: boolean('withdraw_whitelist_only').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), check('users_role_check', sql`${t.role} in ('user', 'operator')`)],
);

/** Opaque session tokens: only a SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** Written at most once a minute per session (core/session.ts; migration 0015). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** When this session last proved the password or second factor (core/reauth.ts; migration 0032). */
    reauthenticatedAt: timestamp('reauthenticated_at', { withTimezone: true }),
    /** When this session last passed a second factor: sign-in with one, or a step-up (migration 0045). */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * One-time e-mail codes (register, reset, withdraw): stored hashed, few tries, short life.
 * One row per address and purpose: a new code replaces the old one, and the unique key lets
 * the "one mail per minute" rule be a single atomic upsert, also across API processes.
 */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /** The language the code was mailed in (migration 0013). */
    locale: text('locale'),
  },
  (t) => [uniqueIndex('email_codes_email_purpose_key').on(t.email, t.purpose)],
);

/** Every sign-in attempt to an account, right or wrong password (modules/security; migration 0015). */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    success: boolean('success').notNull(),
    /** success, password_wrong or second_factor_wrong (migration 0031; success = (kind = 'success')). */
    kind: text('kind').$type<SignInKind>().notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sign_in_attempts_user_idx').on(t.userId, t.id)],
);

/** The roles an operator holds (migration 0045; modules/operators). */
export const operatorRoles = pgTable(
  'operator_roles',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    role: text('role').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    grantedBy: text('granted_by').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    check('operator_roles_role_check', sql`${t.role} in ('support', 'finance', 'admin')`),
  ],
);
