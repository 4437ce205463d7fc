import crypto from 'node:crypto';
import { ErrorCode, RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@coffer/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { BizError } from '../../core/errors.ts';
import { refundRateLimit, takeUnderCap } from '../../core/rate-limits.ts';
import type { Database } from '../../db/client.ts';
import { recoveryCodes, userTotp } from '../../db/schema/index.ts';
import { openSecret } from './secret-box.ts';

/**
 * Authenticator codes (RFC 6238 via otpauth) and recovery codes. Every check of a code counts
 * against SECOND_FACTOR_TRIES in the shared rate-limit table (a right code gives its try back),
 * so guessing 6 digits is capped per account; a code accepted once is refused afterwards
 * (user_totp.last_step), a recovery code is used once.
 */
export const SECOND_FACTOR_TRIES = { max: 10, windowMs: 15 * 60_000 } as const;
/** One step either side of now is accepted (clock drift of the phone). */
const WINDOW = 1;
const ISSUER = 'Coffer';

export function totpFor(secret: string, label: string, issuer = ISSUER) {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
export const hashRecoveryCode = (code: string) => crypto.createHash('sha256').update(code.replace('-', '').toLowerCase()).digest('hex');

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = crypto.randomBytes(10);
    const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The step of an accepted TOTP code, or null. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpFor(secret, 'x').validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** Takes a try from the account's budget (1002 when spent); `settle(true)` gives it back. */
async function takeTry(database: Database, userId: number) {
  const key = `2fa:${userId}`;
  const hit = await takeUnderCap(database.sql, key, SECOND_FACTOR_TRIES.windowMs, SECOND_FACTOR_TRIES.max);
  if (!hit) throw new BizError(ErrorCode.TOO_MANY_REQUESTS, undefined, 429);
  return async (right: boolean) => {
    if (right) await refundRateLimit(database.sql, key, SECOND_FACTOR_TRIES.windowMs);
  };
}

/** Records `step` as used unless it (or a later one) already was: false for a replay. */
async function claimStep(database: Database, userId: number, step: number): Promise<boolean> {
  const rows = await database.db
    .update(userTotp)
    .set({ lastStep: step })
    .where(and(eq(userTotp.userId, userId), sql`(${userTotp.lastStep} is null or ${userTotp.lastStep} < ${step})`))
    .returning({ userId: userTotp.userId });
  return rows.length === 1;
}

async function useRecoveryCode(database: Database, userId: number, code: string): Promise<boolean> {
  const rows = await database.db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashRecoveryCode(code)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function totpRow(database: Database, userId: number) {
  const [row] = await database.db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
  return row && { ...row, secret: openSecret(database, userId, row.secret) };
}

export async function twoFactorEnabled(database: Database, userId: number): Promise<boolean> {
  const row = await totpRow(database, userId);
  return Boolean(row?.enabledAt);
}

/**
 * Checks a code against the user's authenticator (`enabled` or pending enrolment) and, when
 * `recovery`, the recovery codes. 2007 for a wrong, replayed or used code; 1002 when the
 * account's tries are spent.
 */
export async function verifySecondFactor(
  database: Database,
  userId: number,
  code: string,
  opts: { recovery: boolean; pending?: boolean } = { recovery: true },
): Promise<void> {
  const row = await totpRow(database, userId);
  if (!row || (!opts.pending && !row.enabledAt)) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
  const settle = await takeTry(database, userId);
  const value = code.trim().toLowerCase();
  let right = false;
  if (/^\d{6}$/.test(value)) {
    const step = matchingStep(row.secret, value);
    right = step !== null && (await claimStep(database, userId, step));
  } else if (opts.recovery) {
    right = await useRecoveryCode(database, userId, value);
  }
  await settle(right);
  if (!right) throw new BizError(ErrorCode.WRONG_SECOND_FACTOR);
}

/** For withdrawals and other guarded actions: nothing when 2FA is off, else the code is needed. */
export async function requireSecondFactor(database: Database, userId: number, code: string | undefined): Promise<void> {
  if (!(await twoFactorEnabled(database, userId))) return;
  if (!code) throw new BizError(ErrorCode.SECOND_FACTOR_REQUIRED);
  await verifySecondFactor(database, userId, code, { recovery: true });
}
