import { type AdminSecurityEvent, ErrorCode, USER_SECURITY_EVENTS } from '@coffer/contract';
import { BizError, notFound } from '../../core/errors.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import { announceRevoked, type SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction, type Query } from '../../db/transaction.ts';

interface EventRow {
  at: Date | string;
  type: AdminSecurityEvent['type'];
  code: string;
  ip: string | null;
  ends_at: Date | string | null;
  active: boolean;
}

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * A user's latest security events for support: sign-ins (good and refused) and the credential
 * changes that held withdrawals, newest first. The user agent is left out: the IP and the time
 * are what a support call checks against, and the list stays short.
 */
export async function securityEvents(database: Database, uid: number): Promise<AdminSecurityEvent[]> {
  const rows = await database.sql.query<EventRow>(
    `(select created_at as at, case when success then 'sign_in' else 'sign_in_failed' end as type, kind as code, ip,
             null::timestamptz as ends_at, false as active
        from sign_in_attempts where user_id = $1 order by id desc limit $2)
     union all
     (select created_at, 'hold', reason, null, coalesce(cancelled_at, ends_at), cancelled_at is null and ends_at > now()
        from security_holds where user_id = $1 order by id desc limit $2)
     order by at desc limit $2`,
    [uid, USER_SECURITY_EVENTS],
  );
  return rows.map((r) => ({
    at: iso(r.at),
    type: r.type,
    code: r.code,
    ip: r.ip,
    endsAt: r.ends_at === null ? null : iso(r.ends_at),
    active: r.active === true,
  }));
}

/** The target of a support action: it exists, and is neither the operator nor another operator (3007). */
async function lockUser(q: Query, operator: Pick<SessionUser, 'id'>, uid: number): Promise<void> {
  const [user] = await q<{ role: string }>('select role from users where id = $1 for update', [uid]);
  if (!user) throw notFound();
  if (uid === operator.id || user.role === 'operator') throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
}

/**
 * Ends every live session of a user now (a stolen phone, a shared computer), with its audit
 * row in the same transaction; long-lived answers of this process end at once. 3007 when no
 * session is live.
 */
export async function forceSignOut(
  database: Database,
  operator: Pick<SessionUser, 'id' | 'email'>,
  uid: number,
  reason: string,
): Promise<void> {
  const revoked = await inTransaction(database, async (q) => {
    await lockUser(q, operator, uid);
    const sessions = await q<{ id: number }>(
      'update sessions set revoked_at = now() where user_id = $1 and revoked_at is null and expires_at > now() returning id',
      [uid],
    );
    if (sessions.length === 0) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    await recordOperatorAction(q, {
      ...operatorOf(operator),
      action: 'user.sign_out',
      targetType: 'user',
      targetId: uid,
      reason,
      before: { activeSessions: sessions.length },
      after: { activeSessions: 0 },
    });
    return sessions.map((s) => Number(s.id));
  });
  announceRevoked(database.db, revoked);
}

/**
 * Ends the withdrawal holds in force on a user's account (support has confirmed with the owner
 * that the credential change was theirs). The rows stay, marked cancelled: they are the
 * account's security history. 3007 when no hold is in force.
 */
export async function endHolds(database: Database, operator: Pick<SessionUser, 'id' | 'email'>, uid: number, reason: string) {
  await inTransaction(database, async (q) => {
    await lockUser(q, operator, uid);
    const ended = await q<{ id: number; reason: string; ends_at: Date | string }>(
      `update security_holds set cancelled_at = now()
        where user_id = $1 and cancelled_at is null and ends_at > now() returning id, reason, ends_at`,
      [uid],
    );
    if (ended.length === 0) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    await recordOperatorAction(q, {
      ...operatorOf(operator),
      action: 'user.hold.end',
      targetType: 'user',
      targetId: uid,
      reason,
      before: { holds: ended.map((h) => ({ id: Number(h.id), reason: h.reason, endsAt: iso(h.ends_at) })) },
      after: { holds: [] },
    });
  });
}
