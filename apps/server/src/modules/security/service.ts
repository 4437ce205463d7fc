import { type AntiPhishingData, maskPhrase, type RevokeOthersData, type SecuritySessionList, type SignInPage } from '@coffer/contract';
import { and, count, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { notFound } from '../../core/errors.ts';
import { announceRevoked } from '../../core/session.ts';
import type { Db } from '../../db/client.ts';
import { sessions, signInAttempts, users } from '../../db/schema/index.ts';
import { deviceName } from './user-agent.ts';

/** Most sessions listed (most recently used first). */
const SESSIONS_LISTED = 100;

const active = (userId: number) => and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()));

export class SecurityService {
  constructor(private readonly db: Db) {}

  async sessions(userId: number, currentSessionId: number): Promise<SecuritySessionList> {
    const rows = await this.db
      .select()
      .from(sessions)
      .where(active(userId))
      .orderBy(desc(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`), desc(sessions.id))
      .limit(SESSIONS_LISTED);
    return {
      list: rows.map((s) => ({
        id: s.id,
        device: deviceName(s.userAgent),
        ip: s.ip,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt?.toISOString() ?? null,
        current: s.id === currentSessionId,
      })),
    };
  }

  /** 4004 unless `sessionId` is an active session of the user (another user's id included). */
  async revoke(userId: number, sessionId: number): Promise<void> {
    const rows = await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), active(userId)))
      .returning({ id: sessions.id });
    if (!rows[0]) throw notFound();
    announceRevoked(this.db, [sessionId]);
  }

  async revokeOthers(userId: number, currentSessionId: number): Promise<RevokeOthersData> {
    const rows = await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(active(userId), ne(sessions.id, currentSessionId)))
      .returning({ id: sessions.id });
    announceRevoked(
      this.db,
      rows.map((r) => r.id),
    );
    return { revoked: rows.length };
  }

  async signIns(userId: number, page: number, pageSize: number): Promise<SignInPage> {
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(signInAttempts)
        .where(eq(signInAttempts.userId, userId))
        .orderBy(desc(signInAttempts.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ n: count() }).from(signInAttempts).where(eq(signInAttempts.userId, userId)),
    ]);
    return {
      list: rows.map((r) => ({
        id: r.id,
        success: r.success,
        kind: r.kind,
        ip: r.ip,
        device: deviceName(r.userAgent),
        createdAt: r.createdAt.toISOString(),
      })),
      total: total?.n ?? 0,
      page,
      pageSize,
    };
  }

  async antiPhishing(userId: number): Promise<AntiPhishingData> {
    const [row] = await this.db.select({ phrase: users.antiPhishingPhrase }).from(users).where(eq(users.id, userId));
    return row?.phrase ? { set: true, masked: maskPhrase(row.phrase) } : { set: false, masked: null };
  }

  async setAntiPhishing(userId: number, phrase: string): Promise<AntiPhishingData> {
    await this.db
      .update(users)
      .set({ antiPhishingPhrase: phrase || null, updatedAt: new Date() })
      .where(eq(users.id, userId));
    return this.antiPhishing(userId);
  }
}
