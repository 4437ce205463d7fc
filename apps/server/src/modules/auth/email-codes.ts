import crypto from 'node:crypto';
import { ErrorCode, EMAIL_CODE_LENGTH, EMAIL_CODE_RESEND_SECONDS, type Locale, type MailType } from '@coffer/contract';
import { and, eq, gt, isNull, lt, lte, sql } from 'drizzle-orm';
import { BizError } from '../../core/errors.ts';
import { readRateLimit, refundRateLimit, sqlClientOf, takeUnderCap } from '../../core/rate-limits.ts';
import type { Db } from '../../db/client.ts';
import { emailCodes } from '../../db/schema/index.ts';

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_WRONG_TRIES = 5;
/** One mail per address and purpose per minute: protects inboxes and our sender reputation. */
export const RESEND_INTERVAL_MS = EMAIL_CODE_RESEND_SECONDS * 1000;

/**
 * Wrong codes per (address, purpose) across codes, kept in the database (rate_limits). Each
 * new code brings MAX_WRONG_TRIES fresh tries and a code can be had every minute, so without
 * this an attacker got about 7,200 guesses a day at one address; with it, 10 a day. When the
 * cap is reached, codes for that purpose are refused (2005: checking and sending alike) until
 * the 24 hours that began with the first wrong code are over, and the owner is told once.
 */
export const CODE_GUESS_CAP = { max: 10, windowMs: 24 * 60 * 60_000 } as const;

const guessKey = (email: string, purpose: MailType) => `email-code-guess:${purpose}:${email}`;

export interface CodeGuessCapReached {
  email: string;
  purpose: MailType;
}

/**
 * Who hears that an address reached the cap, per database handle: the auth module registers
 * its mailer when the app starts, so every caller of checkEmailCode (the withdraw flow too)
 * alerts the owner without passing a mailer along.
 */
const capAlerts = new WeakMap<Db, (event: CodeGuessCapReached) => void>();

export function onCodeGuessCapReached(db: Db, alert: (event: CodeGuessCapReached) => void): void {
  capAlerts.set(db, alert);
}

/** 2005 when the address has used up its wrong codes for this purpose (sendMail asks first). */
export async function assertCodesAllowed(db: Db, email: string, purpose: MailType): Promise<void> {
  const { count } = await readRateLimit(sqlClientOf(db), guessKey(email, purpose), CODE_GUESS_CAP.windowMs);
  if (count >= CODE_GUESS_CAP.max) throw new BizError(ErrorCode.TOO_MANY_WRONG_CODES);
}

/** The language the current code of (email, purpose) was mailed in, if any. */
export async function codeLocale(db: Db, email: string, purpose: MailType): Promise<Locale | null> {
  const [row] = await db
    .select({ locale: emailCodes.locale })
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)));
  return row?.locale === 'zh-CN' || row?.locale === 'en-US' ? row.locale : null;
}

/**
 * Six digits are guessable offline in a moment, so the hash only keeps the code out of
 * plain sight in the database and its backups; the real protection is the short life and
 * the few tries. HMAC with a per-code salt is enough for that and costs nothing.
 */
function digest(code: string, salt: string): Buffer {
  return crypto.createHmac('sha256', salt).update(code).digest();
}

function encodeCode(code: string): string {
  const salt = crypto.randomBytes(16).toString('hex');
  return `${salt}:${digest(code, salt).toString('hex')}`;
}

function codeMatches(stored: string, code: string): boolean {
  const [salt, hex] = stored.split(':');
  if (!salt || !hex) return false;
  const expected = Buffer.from(hex, 'hex');
  const actual = digest(code, salt);
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

export function newCode(): string {
  return crypto
    .randomInt(0, 10 ** EMAIL_CODE_LENGTH)
    .toString()
    .padStart(EMAIL_CODE_LENGTH, '0');
}

export type IssueResult = { issued: true; id: number; code: string } | { issued: false; retryAfterMs: number };

/**
 * Stores a fresh code for (email, purpose), replacing the previous one, unless the previous
 * one is younger than a minute. The rule is a single upsert on the unique key, so two
 * simultaneous requests (even on two API processes) cannot both send a mail.
 */
export async function issueEmailCode(db: Db, email: string, purpose: MailType, locale?: Locale): Promise<IssueResult> {
  const code = newCode();
  const now = new Date();
  const fresh = {
    codeHash: encodeCode(code),
    attempts: 0,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    consumedAt: null,
    locale: locale ?? null,
  };
  const rows = await db
    .insert(emailCodes)
    .values({ email, purpose, ...fresh })
    .onConflictDoUpdate({
      target: [emailCodes.email, emailCodes.purpose],
      set: fresh,
      setWhere: lte(emailCodes.createdAt, new Date(now.getTime() - RESEND_INTERVAL_MS)),
    })
    .returning({ id: emailCodes.id });
  if (rows[0]) return { issued: true, id: rows[0].id, code };

  const [previous] = await db
    .select({ createdAt: emailCodes.createdAt })
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)));
  const elapsed = previous ? now.getTime() - previous.createdAt.getTime() : 0;
  return { issued: false, retryAfterMs: Math.max(1000, RESEND_INTERVAL_MS - elapsed) };
}

/** The mail could not be sent: forget the code so the user may ask again at once. */
export async function withdrawEmailCode(db: Db, id: number): Promise<void> {
  await db.delete(emailCodes).where(and(eq(emailCodes.id, id), isNull(emailCodes.consumedAt)));
}

/**
 * Checks a code without using it up and returns its row id (2004 otherwise, 2005 once the
 * address has had CODE_GUESS_CAP wrong codes for this purpose). Both tries are taken first,
 * each in its own statement that commits on its own, so a wrong guess always counts, parallel
 * guesses cannot exceed either limit, and after MAX_WRONG_TRIES wrong ones the code is dead;
 * a right code gives both tries back (the code's and the cap's), so only wrong codes count. Any failure counts toward the cap, including
 * an address without a code, so 2005 comes alike for addresses with and without an account.
 * Call consumeEmailCode in the transaction that acts on the code.
 */
export async function checkEmailCode(db: Db, email: string, purpose: MailType, code: string): Promise<number> {
  const guesses = sqlClientOf(db);
  const key = guessKey(email, purpose);
  const reserved = await takeUnderCap(guesses, key, CODE_GUESS_CAP.windowMs, CODE_GUESS_CAP.max);
  if (!reserved) throw new BizError(ErrorCode.TOO_MANY_WRONG_CODES);

  const rows = await db
    .update(emailCodes)
    .set({ attempts: sql`${emailCodes.attempts} + 1` })
    .where(
      and(
        eq(emailCodes.email, email),
        eq(emailCodes.purpose, purpose),
        isNull(emailCodes.consumedAt),
        gt(emailCodes.expiresAt, new Date()),
        lt(emailCodes.attempts, MAX_WRONG_TRIES),
      ),
    )
    .returning({ id: emailCodes.id, codeHash: emailCodes.codeHash });
  const row = rows[0];
  if (row && codeMatches(row.codeHash, code)) {
    // A right code gives back both tries: only wrong codes use it up, so applies refused
    // for another reason (e.g. the balance) do not kill it.
    await db
      .update(emailCodes)
      .set({ attempts: sql`greatest(${emailCodes.attempts} - 1, 0)` })
      .where(eq(emailCodes.id, row.id));
    await refundRateLimit(guesses, key, CODE_GUESS_CAP.windowMs);
    return row.id;
  }
  // Exactly one request sees the count reach the cap: the owner is told once per window.
  if (reserved.count === CODE_GUESS_CAP.max) capAlerts.get(db)?.({ email, purpose });
  throw new BizError(ErrorCode.WRONG_EMAIL_CODE);
}

/** Marks a checked code used; 2004 if a parallel request used it first. */
export async function consumeEmailCode(db: Db, id: number): Promise<void> {
  const rows = await db
    .update(emailCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(emailCodes.id, id), isNull(emailCodes.consumedAt)))
    .returning({ id: emailCodes.id });
  if (!rows[0]) throw new BizError(ErrorCode.WRONG_EMAIL_CODE);
}
