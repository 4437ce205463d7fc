import { ErrorCode, type ReauthBody, type ReauthData } from '@coffer/contract';
import { normalizeIP } from '@fastify/rate-limit';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { MailingDeps } from '../../core/deps.ts';
import { BizError } from '../../core/errors.ts';
import { takeUnderCap } from '../../core/rate-limits.ts';
import { markReauthenticated, reauthValidUntil } from '../../core/reauth.ts';
import { markSecondFactor, type SessionUser } from '../../core/session.ts';
import { users } from '../../db/schema/index.ts';
import { recordSignIn } from '../security/index.ts';
import { requireSecondFactor, twoFactorEnabled } from '../two-factor/index.ts';
import { LOGIN_PER_ADDRESS_AND_IP, loginPerAddressAndIpKey, slowDownLogin } from './login-limits.ts';
import { verifyPassword } from './passwords.ts';

export type ReauthDeps = MailingDeps & { config: Pick<Config, 'RATE_LIMIT'> };

/**
 * Proves, for this session only, that its user knows the password (or, with two-factor on, has
 * the authenticator or a recovery code), and records it (core/reauth.ts). A password is
 * checked under the sign-in limits (the same per address-and-IP count as /api/login and the
 * same slowdown per address) and a wrong one is in the sign-in history, so a stolen session
 * is no faster password oracle than the sign-in page. Codes count against the second-factor
 * tries. 2002 for a wrong password, 2006 a password while two-factor is on (a code is needed),
 * 2007 a wrong code, 3007 a code without two-factor on.
 */
export async function reauthenticate(
  deps: ReauthDeps,
  user: SessionUser,
  body: ReauthBody,
  client: { ip: string; userAgent?: string },
): Promise<ReauthData> {
  const db = deps.database.db;
  if (body.code !== undefined) {
    if (!(await twoFactorEnabled(deps.database, user.id))) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    await requireSecondFactor(deps.database, user.id, body.code);
    // A step-up with the factor: an operator's session opened before enrolment passes from now on.
    await markSecondFactor(db, user.sessionId);
  } else {
    // With two-factor on, the password is not enough: it is exactly what a thief holding a
    // session and the password has (2006, give a code).
    if (await twoFactorEnabled(deps.database, user.id)) throw new BizError(ErrorCode.SECOND_FACTOR_REQUIRED);
    await checkPassword(deps, user, body.password ?? '', client);
  }
  await markReauthenticated(db, user.sessionId);
  return reauthStatus(deps, user.sessionId);
}

export async function reauthStatus(deps: MailingDeps, sessionId: number): Promise<ReauthData> {
  const until = await reauthValidUntil(deps.database.db, sessionId);
  return { validUntil: until?.toISOString() ?? null };
}

async function checkPassword(deps: ReauthDeps, user: SessionUser, password: string, client: { ip: string; userAgent?: string }) {
  const { sql } = deps.database;
  let succeeded: (() => Promise<void>) | undefined;
  if (deps.config.RATE_LIMIT) {
    const key = loginPerAddressAndIpKey(user.email, normalizeIP(client.ip));
    const hit = await takeUnderCap(sql, key, LOGIN_PER_ADDRESS_AND_IP.windowMs, LOGIN_PER_ADDRESS_AND_IP.max);
    if (!hit) throw new BizError(ErrorCode.TOO_MANY_REQUESTS, undefined, 429);
    succeeded = await slowDownLogin(sql, user.email);
  }
  const [row] = await deps.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id)).limit(1);
  if (!row || !(await verifyPassword(row.hash, password))) {
    await recordSignIn(deps.database.db, user.id, 'password_wrong', client);
    throw new BizError(ErrorCode.WRONG_CREDENTIALS);
  }
  await succeeded?.();
}
