import crypto from 'node:crypto';
import { ErrorCode } from '@coffer/contract';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema/index.ts';
import { BizError } from './errors.ts';

export const TOKEN_HEAD = 'Bearer ' as const;
const TOKEN_BYTES = 32;
/** sessions.last_seen_at is written at most this often per session (security centre). */
export const LAST_SEEN_EVERY_MS = 60_000;

export interface SessionUser {
  id: number;
  email: string;
  role: 'user' | 'operator';
  sessionId: number;
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
export async function createSession(db: Db, userId: number, ttlHours: number, meta: { userAgent?: string; ip?: string }): Promise<string> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + ttlHours * 3600_000).toISOString();
  const res = await db.execute(sql`
    insert into sessions (user_id, token_hash, expires_at, user_agent, ip)
    select u.id, ${hashToken(token)}, ${expiresAt}::timestamptz, ${meta.userAgent?.slice(0, 300) ?? null}, ${meta.ip ?? null}
      from users u where u.id = ${userId} and u.disabled_at is null
       for share
    returning id`);
  if ((res as unknown as { rows: unknown[] }).rows.length === 0) {
    await assertSignInAllowed(db, userId);
    throw new BizError(ErrorCode.NOT_SIGNED_IN);
  }
  return token;
}

/**
 * Resolves the session of a request; missing, expired or revoked answers 2001, a session of a
 * disabled account 2010 (disabling revokes them too; this covers one opened meanwhile).
 */
export async function requireSession(db: Db, request: FastifyRequest): Promise<SessionUser> {
  const token = tokenFromRequest(request);
  if (!token) throw new BizError(ErrorCode.NOT_SIGNED_IN);
  const rows = await db
    .select({
      sessionId: sessions.id,
      id: users.id,
      email: users.email,
      role: users.role,
      lastSeenAt: sessions.lastSeenAt,
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
  if (!row.lastSeenAt || now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
    // At most one write a minute per session; the condition keeps parallel requests to one.
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
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
