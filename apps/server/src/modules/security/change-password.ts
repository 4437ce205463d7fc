import { type ChangePasswordData, ErrorCode, type Locale } from '@coffer/contract';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { MailingDeps } from '../../core/deps.ts';
import { BizError } from '../../core/errors.ts';
import { refundRateLimit, sqlClientOf, takeUnderCap } from '../../core/rate-limits.ts';
import { announceRevoked, type SessionUser } from '../../core/session.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from '../auth/index.ts';
import { requireSecondFactor } from '../two-factor/index.ts';
import { notifySecurityEvent, type SecurityEventClient } from './mail.ts';

/**
 * Wrong current passwords per account in the window before changes are refused (1002): a
 * stolen session must not become a password-guessing oracle that skips the login throttle.
 * A right password gives its try back.
 */
export const CHANGE_PASSWORD_TRIES = { max: 5, windowMs: 15 * 60_000 } as const;

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
  code?: string | undefined;
  signOutOthers: boolean;
}

/**
 * Changes the signed-in user's password (security centre). Judged in this order, so a refusal
 * spends nothing it need not: the new password (1001, like sign-up), the current one (2012,
 * capped per account), then the second factor when two-factor is on (2006 / 2007). The new
 * hash and, on request, the end of every other session commit together; their event streams
 * end at once and the owner is mailed.
 */
export async function changePassword(
  deps: MailingDeps,
  user: Pick<SessionUser, 'id' | 'sessionId'>,
  input: ChangePasswordInput,
  locale: Locale,
  client: SecurityEventClient,
): Promise<ChangePasswordData> {
  const { db } = deps.database;
  assertAcceptablePassword(input.newPassword, locale);
  await assertCurrentPassword(deps, user.id, input.currentPassword);
  await requireSecondFactor(deps.database, user.id, input.code);
  const passwordHash = await hashPassword(input.newPassword);
  const signedOut = await db.transaction(async (tx) => {
    const now = new Date();
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
    if (!input.signOutOthers) return [];
    return tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, user.id), ne(sessions.id, user.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .returning({ id: sessions.id });
  });
  announceRevoked(
    db,
    signedOut.map((s) => s.id),
  );
  void notifySecurityEvent(deps, user.id, 'password_changed', client);
  return { signedOut: signedOut.length };
}

/** 2012 for a wrong current password, 1002 once the account's tries are spent. */
async function assertCurrentPassword(deps: MailingDeps, userId: number, password: string): Promise<void> {
  const { db } = deps.database;
  const tries = sqlClientOf(db);
  const key = `change-password:${userId}`;
  const taken = await takeUnderCap(tries, key, CHANGE_PASSWORD_TRIES.windowMs, CHANGE_PASSWORD_TRIES.max);
  if (!taken) throw new BizError(ErrorCode.TOO_MANY_REQUESTS, undefined, 429);
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row || !(await verifyPassword(row.passwordHash, password))) throw new BizError(ErrorCode.WRONG_CURRENT_PASSWORD);
  await refundRateLimit(tries, key, CHANGE_PASSWORD_TRIES.windowMs);
}
