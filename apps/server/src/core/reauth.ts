import { ErrorCode, REAUTH_SECONDS } from '@coffer/contract';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions } from '../db/schema/index.ts';
import { BizError } from './errors.ts';

/**
 * A recent re-authentication belongs to one session: it proved the password (or the second
 * factor) within REAUTH_SECONDS. Times are the database's (now()), so every API process and
 * the tests agree on them (docs/decisions/035-reauth-and-two-factor-recovery.md).
 */

/** Records that the session proved the password or second factor just now. */
export async function markReauthenticated(db: Db, sessionId: number): Promise<void> {
  await db.update(sessions).set({ reauthenticatedAt: sql`now()` }).where(eq(sessions.id, sessionId));
}

/** Until when the session's re-authentication lasts, or null when it has none that is still recent. */
export async function reauthValidUntil(db: Db, sessionId: number): Promise<Date | null> {
  const until = sql<Date>`${sessions.reauthenticatedAt} + make_interval(secs => ${REAUTH_SECONDS})`;
  const [row] = await db
    .select({ until })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), gt(until, sql`now()`)))
    .limit(1);
  return row ? new Date(row.until) : null;
}

/** 2013 unless the session re-authenticated within REAUTH_SECONDS. */
export async function requireRecentReauth(db: Db, sessionId: number): Promise<void> {
  if (!(await reauthValidUntil(db, sessionId))) throw new BizError(ErrorCode.REAUTH_REQUIRED);
}
