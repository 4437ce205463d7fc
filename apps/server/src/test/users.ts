import crypto from 'node:crypto';
import { type Envelope, OPERATOR_ROLES, type OperatorRole } from '@coffer/contract';
import { eq } from 'drizzle-orm';
import { createSession, hashToken, TOKEN_HEAD } from '../core/session.ts';
import { operatorRoles, passkeys, sessions, users } from '../db/schema/index.ts';
import { adjustBalance } from '../ledger/adjust.ts';
import type { TestApp } from './harness.ts';

export interface TestUser {
  uid: number;
  email: string;
  nickname: string;
  /** The X-Token header value (tokenHead + token), as the web app sends it. */
  token: string;
}

/**
 * A user with a session, written straight to the database (no mail round trip): for tests
 * that need signed-in users quickly. The password hash is not a valid one (no login).
 */
export async function createUser(
  t: Pick<TestApp, 'database'>,
  opts: {
    email?: string;
    role?: 'user' | 'operator';
    nickname?: string;
    avatar?: string | null;
    /** The session proved the password just now (core/reauth.ts): it may add a passkey or turn two-factor on. */
    reauthenticated?: boolean;
    /**
     * Operators only: their roles (default all three, so they pass every admin route), and
     * whether they have a second factor (a passkey enrolled a minute ago; default true) that
     * this session passed (default: whenever they have one).
     */
    roles?: OperatorRole[];
    secondFactor?: boolean;
    sessionVerified?: boolean;
  } = {},
): Promise<TestUser> {
  const email = (opts.email ?? `u-${crypto.randomBytes(5).toString('hex')}@test.coffer`).toLowerCase();
  const nickname = opts.nickname ?? email.split('@')[0]!;
  const [row] = await t.database.db
    .insert(users)
    .values({ email, passwordHash: 'test-user-no-password', nickname, avatar: opts.avatar ?? null, role: opts.role ?? 'user' })
    .returning({ id: users.id });
  const operator = opts.role === 'operator';
  const enrolled = operator && (opts.secondFactor ?? true);
  if (operator) {
    for (const role of opts.roles ?? OPERATOR_ROLES) {
      await t.database.db.insert(operatorRoles).values({ userId: row!.id, role, grantedBy: 'test' });
    }
  }
  // A passkey rather than an authenticator: it leaves the step-up policy (TOTP only) as it was.
  if (enrolled) await enrolTestPasskey(t, row!.id);
  const token = await createSession(t.database.db, row!.id, 24, { secondFactor: enrolled && (opts.sessionVerified ?? true) });
  if (opts.reauthenticated) {
    await t.database.db
      .update(sessions)
      .set({ reauthenticatedAt: new Date() })
      .where(eq(sessions.tokenHash, hashToken(token)));
  }
  return { uid: row!.id, email, nickname, token: TOKEN_HEAD + token };
}

/** A stored passkey (its key is not usable: no ceremony in API tests), enrolled a minute ago. */
export async function enrolTestPasskey(t: Pick<TestApp, 'database'>, userId: number): Promise<void> {
  await t.database.db.insert(passkeys).values({
    userId,
    credentialId: `test-${crypto.randomBytes(8).toString('hex')}`,
    publicKey: 'test-key',
    counter: 0,
    name: 'test passkey',
    createdAt: new Date(Date.now() - 60_000),
  });
}

/** Credits a user's available balance through the operator adjustment (the real ledger path). */
export async function fund(t: Pick<TestApp, 'database'>, uid: number, currency: string | number, amount: string) {
  return adjustBalance(t.database, {
    user: { uid },
    currency,
    amount,
    direction: 'credit',
    reason: 'test funding',
    actor: 'test',
    actorUserId: null,
  });
}

export interface Call<T> extends Envelope<T> {
  status: number;
}

export interface CallOptions {
  /** X-Token header value (tokenHead + token). */
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (e.g. malformed JSON); wins over body. */
  raw?: string;
  lang?: string;
  /** Idempotency-Key header. */
  key?: string;
  /** The client's address (remoteAddress): the per-IP limits count by it. */
  ip?: string;
}

/**
 * The one app.inject() helper of the API tests: a call with X-Token, accept-language and
 * Idempotency-Key as the web app sends them; answers the envelope and the HTTP status.
 */
export function client(t: Pick<TestApp, 'app'>) {
  return async function call<T = unknown>(method: 'GET' | 'POST', url: string, opts: CallOptions = {}): Promise<Call<T>> {
    const headers: Record<string, string> = {};
    if (opts.token) headers['x-token'] = opts.token;
    if (opts.lang) headers['accept-language'] = opts.lang;
    if (opts.key) headers['idempotency-key'] = opts.key;
    const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const res = await t.app.inject({ method, url, headers, payload, ...(opts.ip && { remoteAddress: opts.ip }) });
    return { status: res.statusCode, ...(res.json() as Envelope<T>) };
  };
}

export type Client = ReturnType<typeof client>;
