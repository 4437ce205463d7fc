import crypto from 'node:crypto';
import { ErrorCode } from '@coffer/contract';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema/index.ts';
import { BizError, type LocalizedDetail } from './errors.ts';

export const TOKEN_HEAD = 'Bearer ' as const;
const TOKEN_BYTES = 32;
/** sessions.last_seen_at is written at most this often per session (security centre). */
export const LAST_SEEN_EVERY_MS = 60_000;

export interface SessionUser {
  id: number;
  email: string;
  role: 'user' | 'operator';
  sessionId: number;
  /** When the session opened. */
  sessionCreatedAt: Date;
  /** When the session last passed a second factor (sign-in with one, or a step-up); null: never. */
  secondFactorAt: Date | null;
}

/**
 * Operators' sessions are shorter (decision 045): at most `maxHours` after sign-in, and they end
 * after `idleMinutes` without a request. last_seen_at is written at most once a minute, so a
 * request may have come up to LAST_SEEN_EVERY_MS after it: the idle limit is counted from
 * last_seen_at plus that minute (a session ends between idleMinutes and idleMinutes + 1 min
 * after its last request, never earlier).
 */
export interface OperatorSessionPolicy {
  maxHours: number;
  idleMinutes: number;
  /** SESSION_TTL_HOURS: an operator's session never outlives what any session may. */
  ttlHours: number;
}

export function operatorSessionPolicy(config: {
  OPERATOR_SESSION_HOURS: number;
  OPERATOR_IDLE_MINUTES: number;
  SESSION_TTL_HOURS: number;
}): OperatorSessionPolicy {
  return { maxHours: config.OPERATOR_SESSION_HOURS, idleMinutes: config.OPERATOR_IDLE_MINUTES, ttlHours: config.SESSION_TTL_HOURS };
}

const idleLimitMs = (p: OperatorSessionPolicy) => p.idleMinutes * 60_000 + LAST_SEEN_EVERY_MS;
const maxAgeMs = (p: OperatorSessionPolicy) => Math.min(p.maxHours, p.ttlHours) * 3600_000;

/** Why an operator's session ended, in both languages (appended to 2001's message). */
function operatorSessionEnded(kind: 'idle' | 'max', p: OperatorSessionPolicy): LocalizedDetail {
  return kind === 'idle'
    ? {
        'zh-CN': `运营人员会话超过 ${p.idleMinutes} 分钟无操作，已自动退出`,
        'en-US': `operator sessions end after ${p.idleMinutes} minutes without activity`,
      }
    : {
        'zh-CN': `运营人员会话最长 ${p.maxHours} 小时，请重新登录`,
        'en-US': `operator sessions last at most ${p.maxHours} hours: sign in again`,
      };
}

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export function newToken(): string {
  return crypto.randomBytes(TOKEN_BYTES).toString('base64url');
}

/** X-Token carries tokenHead + token; a bare token is accepted too. */
export function tokenFromRequest(request: FastifyRequest): string | undefined {
  const raw = request.headers['x-token'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  const token = value.startsWith(TOKEN_HEAD) ? value.slice(TOKEN_HEAD.length) : value;
  return token.trim() || undefined;
}

/** users.disabled_at (migration 0020): set while an operator has disabled the account. */
const disabledAt = sql<Date | null>`${users}.disabled_at`;

/** 2010 when an operator disabled the account: every way in (password, second step, passkey) ends here. */
export async function assertSignInAllowed(db: Db, userId: number): Promise<void> {
  const [row] = await db.select({ disabledAt }).from(users).where(eq(users.id, userId)).limit(1);
  if (row?.disabledAt) throw new BizError(ErrorCode.ACCOUNT_DISABLED);
}

/**
 * Opens a session unless the account is disabled (2010). The insert reads the user row FOR
 * SHARE, so it cannot commit beside an operator's disable: a disable in flight holds the row,
 * the insert waits for it and then sees disabled_at; an insert in flight makes the disable wait,
 * and its revoke of the account's sessions then sees the new one. A plain check before the
 * insert let sessions opened during a disable survive it (measured: 26 of 92 racing tokens).
 */
export async function createSession(
  db: Db,
  userId: number,
  ttlHours: number,
  meta: { userAgent?: string; ip?: string /** The sign-in passed a second factor (code or passkey). */; secondFactor?: boolean },
): Promise<string> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + ttlHours * 3600_000).toISOString();
  const res = await db.execute(sql`
    insert into sessions (user_id, token_hash, expires_at, user_agent, ip, second_factor_at)
    select u.id, ${hashToken(token)}, ${expiresAt}::timestamptz, ${meta.userAgent?.slice(0, 300) ?? null}, ${meta.ip ?? null},
           ${meta.secondFactor ? sql`now()` : sql`null`}
      from users u where u.id = ${userId} and u.disabled_at is null
       for share
    returning id`);
  if ((res as unknown as { rows: unknown[] }).rows.length === 0) {
    await assertSignInAllowed(db, userId);
    throw new BizError(ErrorCode.NOT_SIGNED_IN);
  }
  return token;
}

/** Records that the session passed a second factor just now (a step-up with a code or passkey). */
export async function markSecondFactor(db: Db, sessionId: number): Promise<void> {
  await db.update(sessions).set({ secondFactorAt: sql`now()` }).where(eq(sessions.id, sessionId));
}

/**
 * Resolves the session of a request; missing, expired or revoked answers 2001, a session of a
 * disabled account 2010 (disabling revokes them too; this covers one opened meanwhile). With
 * `operators` given, an operator's session idle or older than it allows answers 2001 too, with
 * the reason; each last-seen write then also pulls its expiry in (so every other path that reads
 * expires_at, such as the transfer statement and the event stream, ends it as well).
 */
export async function requireSession(db: Db, request: FastifyRequest, operators?: OperatorSessionPolicy): Promise<SessionUser> {
  const token = tokenFromRequest(request);
  if (!token) throw new BizError(ErrorCode.NOT_SIGNED_IN);
  const rows = await db
    .select({
      sessionId: sessions.id,
      id: users.id,
      email: users.email,
      role: users.role,
      lastSeenAt: sessions.lastSeenAt,
      sessionCreatedAt: sessions.createdAt,
      secondFactorAt: sessions.secondFactorAt,
      disabledAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .limit(1);
  const row = rows[0];
  if (!row) throw new BizError(ErrorCode.NOT_SIGNED_IN);
  if (row.disabledAt) throw new BizError(ErrorCode.ACCOUNT_DISABLED);
  const now = new Date();
  const policy = row.role === 'operator' ? operators : undefined;
  if (policy) {
    if (now.getTime() - row.sessionCreatedAt.getTime() > maxAgeMs(policy)) {
      throw new BizError(ErrorCode.NOT_SIGNED_IN, operatorSessionEnded('max', policy));
    }
    if (now.getTime() - (row.lastSeenAt ?? row.sessionCreatedAt).getTime() > idleLimitMs(policy)) {
      throw new BizError(ErrorCode.NOT_SIGNED_IN, operatorSessionEnded('idle', policy));
    }
  }
  if (!row.lastSeenAt || now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
    // At most one write a minute per session; the condition keeps parallel requests to one.
    const expiresAt = policy
      ? sql`least(${sessions.createdAt} + make_interval(secs => ${maxAgeMs(policy) / 1000}),
                  ${new Date(now.getTime() + idleLimitMs(policy)).toISOString()}::timestamptz)`
      : undefined;
    await db
      .update(sessions)
      .set({ lastSeenAt: now, ...(expiresAt && { expiresAt }) })
      .where(
        and(
          eq(sessions.id, row.sessionId),
          or(isNull(sessions.lastSeenAt), lt(sessions.lastSeenAt, new Date(now.getTime() - LAST_SEEN_EVERY_MS))),
        ),
      );
  }
  const { lastSeenAt: _seen, disabledAt: _disabled, ...user } = row;
  return { ...user, role: row.role === 'operator' ? 'operator' : 'user' };
}

/**
 * In-process news of revoked sessions, per database handle: whatever signs sessions out
 * (logout, password reset and change, the security centre, an operator's disable) announces
 * them after its commit, and long-lived answers (the event stream) of those sessions end at
 * once. Other processes notice on their next periodic check (sessionActive).
 */
const revokedListeners = new WeakMap<Db, Set<(sessionIds: number[]) => void>>();

export function onSessionsRevoked(db: Db, listener: (sessionIds: number[]) => void): () => void {
  let set = revokedListeners.get(db);
  if (!set) {
    set = new Set();
    revokedListeners.set(db, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function announceRevoked(db: Db, sessionIds: number[]): void {
  if (sessionIds.length === 0) return;
  for (const listener of revokedListeners.get(db) ?? []) listener(sessionIds);
}

/** Whether a session is still signed in (not revoked, not expired). */
export async function sessionActive(db: Db, sessionId: number): Promise<boolean> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return rows.length > 0;
}
