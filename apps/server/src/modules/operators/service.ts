import {
  ErrorCode,
  OPERATOR_ROLES,
  type OperatorItem,
  type OperatorRole,
  type OperatorRolesBody,
  type OperatorRolesData,
  type OperatorSessionData,
} from '@coffer/contract';
import type { FastifyBaseLogger } from 'fastify';
import { BizError, notFound } from '../../core/errors.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import type { OperatorSessionPolicy, SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction, type Query } from '../../db/transaction.ts';
import { operatorStanding } from './guard.ts';

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

interface OperatorRow {
  id: number | string;
  email: string;
  nickname: string;
  roles: string | null;
  totp: boolean;
  passkeys: number | string;
  last_seen_at: Date | string | null;
}

const OPERATOR_COLUMNS = `u.id, u.email, u.nickname,
  (select string_agg(r.role, ',') from operator_roles r where r.user_id = u.id) as roles,
  exists (select 1 from user_totp t where t.user_id = u.id and t.enabled_at is not null) as totp,
  (select count(*) from passkeys p where p.user_id = u.id) as passkeys,
  (select max(s.last_seen_at) from sessions s where s.user_id = u.id) as last_seen_at`;

const rolesOf = (csv: string | null): OperatorRole[] => {
  const held = new Set((csv ?? '').split(','));
  return OPERATOR_ROLES.filter((r) => held.has(r));
};

const toItem = (r: OperatorRow): OperatorItem => ({
  uid: Number(r.id),
  email: r.email,
  nickname: r.nickname,
  roles: rolesOf(r.roles),
  totp: r.totp === true,
  passkeys: Number(r.passkeys),
  lastSeenAt: iso(r.last_seen_at),
});

/** Every operator, by e-mail. */
export async function listOperators(database: Database): Promise<OperatorItem[]> {
  const rows = await database.sql.query<OperatorRow>(`select ${OPERATOR_COLUMNS} from users u where u.role = 'operator' order by u.email`);
  return rows.map(toItem);
}

async function heldRoles(q: Query, uid: number): Promise<OperatorRole[]> {
  const [row] = await q<{ roles: string | null }>(`select string_agg(role, ',') as roles from operator_roles where user_id = $1`, [uid]);
  return rolesOf(row?.roles ?? null);
}

async function operatorItem(q: Query, uid: number): Promise<OperatorItem> {
  const [row] = await q<OperatorRow>(`select ${OPERATOR_COLUMNS} from users u where u.id = $1`, [uid]);
  if (!row) throw notFound();
  return toItem(row);
}

/**
 * Sets a user's whole role set, with its audit row (`operator.roles.set`, before/after) in the
 * same transaction. A user who is not an operator becomes one; an empty set ends operator
 * status. The admin rows are locked first, so two admins removing each other at once cannot
 * both succeed: the last admin keeps the role (3047).
 */
export async function setOperatorRoles(
  database: Database,
  actor: Pick<SessionUser, 'id' | 'email'>,
  uid: number,
  body: OperatorRolesBody,
): Promise<OperatorRolesData> {
  const wanted = OPERATOR_ROLES.filter((r) => body.roles.includes(r));
  return inTransaction(database, async (q) => {
    const admins = await q<{ user_id: number | string }>(`select user_id from operator_roles where role = 'admin' for update`);
    const [user] = await q<{ role: string }>('select role from users where id = $1 for update', [uid]);
    if (!user) throw notFound();
    const before = user.role === 'operator' ? await heldRoles(q, uid) : [];
    const wasOperator = user.role === 'operator';
    const isOperator = wanted.length > 0;
    if (wasOperator === isOperator && before.join() === wanted.join()) return { ...(await operatorItem(q, uid)), changed: false };
    const otherAdmins = admins.filter((a) => Number(a.user_id) !== uid).length;
    if (before.includes('admin') && !wanted.includes('admin') && otherAdmins === 0) throw new BizError(ErrorCode.LAST_ADMIN);
    await q('delete from operator_roles where user_id = $1', [uid]);
    for (const role of wanted) {
      await q('insert into operator_roles (user_id, role, granted_by) values ($1, $2, $3)', [uid, role, actor.email]);
    }
    await q('update users set role = $2, updated_at = now() where id = $1', [uid, isOperator ? 'operator' : 'user']);
    await recordOperatorAction(q, {
      ...operatorOf(actor),
      action: 'operator.roles.set',
      targetType: 'user',
      targetId: uid,
      reason: body.reason,
      before: { operator: wasOperator, roles: before },
      after: { operator: isOperator, roles: wanted },
    });
    return { ...(await operatorItem(q, uid)), changed: true };
  });
}

/**
 * OPERATOR_EMAILS bootstraps the first admin only: while no admin exists, the first listed
 * address that has an account becomes an operator with every role (audited, actor `config`).
 * Once an admin exists this does nothing; operators are then made in the console. The table
 * lock makes two processes starting at once (or two sign-ups) agree on one.
 */
export async function bootstrapAdmin(database: Database, emails: readonly string[], log?: FastifyBaseLogger): Promise<number | null> {
  if (emails.length === 0) return null;
  const made = await inTransaction(database, async (q) => {
    await q('lock table operator_roles in exclusive mode');
    const [admin] = await q(`select 1 from operator_roles where role = 'admin' limit 1`);
    if (admin) return null;
    const candidates = await q<{ id: number | string; email: string; role: string }>(
      `select id, email, role from users where email = any(string_to_array($1, ',')) and disabled_at is null order by id limit 1 for update`,
      [emails.join(',')],
    );
    const user = candidates[0];
    if (!user) return null;
    const uid = Number(user.id);
    const before = await heldRoles(q, uid);
    await q('delete from operator_roles where user_id = $1', [uid]);
    for (const role of OPERATOR_ROLES) {
      await q('insert into operator_roles (user_id, role, granted_by) values ($1, $2, $3)', [uid, role, 'config']);
    }
    await q(`update users set role = 'operator', updated_at = now() where id = $1`, [uid]);
    await recordOperatorAction(q, {
      actorUserId: null,
      actor: 'config',
      action: 'operator.bootstrap',
      targetType: 'user',
      targetId: uid,
      reason: 'OPERATOR_EMAILS (no admin yet)',
      before: { operator: user.role === 'operator', roles: before },
      after: { operator: true, roles: [...OPERATOR_ROLES] },
    });
    return { uid, email: user.email };
  });
  if (made) log?.warn({ uid: made.uid }, 'OPERATOR_EMAILS: made the first admin');
  return made?.uid ?? null;
}

/** What the console needs to know about its own session (GET /api/operator/session). */
export async function operatorSession(database: Database, user: SessionUser, policy: OperatorSessionPolicy): Promise<OperatorSessionData> {
  if (user.role !== 'operator') throw new BizError(ErrorCode.FORBIDDEN, undefined, 403);
  const standing = await operatorStanding(database, user.id, user.secondFactorAt);
  const hours = Math.min(policy.maxHours, policy.ttlHours);
  return {
    uid: user.id,
    email: user.email,
    roles: standing.roles,
    secondFactorEnrolled: standing.enrolled,
    sessionVerified: standing.verified,
    idleMinutes: policy.idleMinutes,
    expiresAt: new Date(user.sessionCreatedAt.getTime() + hours * 3600_000).toISOString(),
  };
}
