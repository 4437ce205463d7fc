import { hitRateLimit, sqlClientOf } from '../../core/rate-limits.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { notifySecurityEvent, type SecurityEventClient } from './mail.ts';
import { recordSignIn } from './sign-ins.ts';

/**
 * One "someone knows your password" mail per account in this window, however many wrong
 * second factors follow: the first tells the owner what to do, more would only be noise (the
 * second-factor tries are capped anyway, modules/two-factor).
 */
export const SECOND_FACTOR_ALERT_WINDOW_MS = 15 * 60_000;

/**
 * A right password was followed by a wrong second factor (authenticator or recovery code,
 * or a passkey): recorded in the sign-in history as its own kind, and the owner is mailed at
 * once, since whoever tried knows the password. Never throws for the mail.
 */
export async function recordWrongSecondFactor(
  deps: { database: { db: Db }; mailer: Mailer },
  userId: number,
  client: SecurityEventClient,
  log?: { error: (obj: object, msg: string) => void },
): Promise<void> {
  const { db } = deps.database;
  await recordSignIn(db, userId, 'second_factor_wrong', client);
  const hit = await hitRateLimit(sqlClientOf(db), `second-factor-wrong-mail:${userId}`, SECOND_FACTOR_ALERT_WINDOW_MS);
  if (hit.count === 1) void notifySecurityEvent(deps, userId, 'second_factor_wrong', client, log);
}
