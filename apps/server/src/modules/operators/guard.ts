import { ErrorCode, OPERATOR_ROLES, type OperatorRole } from '@coffer/contract';
import type { FastifyRequest } from 'fastify';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { rightFor } from './permissions.ts';

/** An operator's standing: roles, enrolled factor, and whether this session passed one since. */
export interface OperatorStanding {
  roles: OperatorRole[];
  /** An authenticator (on) or a passkey is enrolled. */
  enrolled: boolean;
  /** The session passed a second factor at or after the enrolment of a factor that still exists. */
  verified: boolean;
}

/**
 * One statement: the roles, whether a factor is enrolled, and whether the session's second
 * factor mark is later than a factor that still exists (a session opened before enrolment, or
 * marked with a factor removed and enrolled again since, does not pass).
 */
export async function operatorStanding(database: Database, userId: number, secondFactorAt: Date | null): Promise<OperatorStanding> {
  const [row] = await database.sql.query<{ roles: string | null; enrolled: boolean; verified: boolean }>(
    `select (select string_agg(r.role, ',') from operator_roles r where r.user_id = $1) as roles,
            (exists (select 1 from user_totp t where t.user_id = $1 and t.enabled_at is not null)
              or exists (select 1 from passkeys p where p.user_id = $1)) as enrolled,
            ($2::timestamptz is not null
              and (exists (select 1 from user_totp t where t.user_id = $1 and t.enabled_at <= $2::timestamptz)
                or exists (select 1 from passkeys p where p.user_id = $1 and p.created_at <= $2::timestamptz))) as verified`,
    [userId, secondFactorAt?.toISOString() ?? null],
  );
  const held = new Set((row?.roles ?? '').split(','));
  return {
    roles: OPERATOR_ROLES.filter((r) => held.has(r)),
    enrolled: Boolean(row?.enrolled),
    verified: Boolean(row?.verified),
  };
}

const ROLE_NAMES: Record<OperatorRole, { 'zh-CN': string; 'en-US': string }> = {
  support: { 'zh-CN': '客服（support）', 'en-US': 'support' },
  finance: { 'zh-CN': '财务（finance）', 'en-US': 'finance' },
  admin: { 'zh-CN': '管理员（admin）', 'en-US': 'admin' },
};

/**
 * The operator guard of every admin route (preHandler `app.requireOperator`), after the session
 * is resolved: not an operator 403 (4003); no second factor enrolled 403 (3045); a session that
 * did not pass it 403 (3046); a route missing from the permissions table, or a role the operator
 * lacks, 403 (4003, naming the role).
 */
export async function checkOperator(database: Database, request: FastifyRequest): Promise<void> {
  const user = request.user;
  if (user.role !== 'operator') throw new BizError(ErrorCode.FORBIDDEN, undefined, 403);
  const standing = await operatorStanding(database, user.id, user.secondFactorAt);
  if (!standing.enrolled) throw new BizError(ErrorCode.OPERATOR_SECOND_FACTOR_REQUIRED, undefined, 403);
  if (!standing.verified) throw new BizError(ErrorCode.OPERATOR_SESSION_NOT_VERIFIED, undefined, 403);
  const right = rightFor(request.method, request.routeOptions.url);
  if (right === undefined) {
    throw new BizError(ErrorCode.FORBIDDEN, { 'zh-CN': '该接口未在权限表中', 'en-US': 'this route is not in the permissions table' }, 403);
  }
  if (right === 'any' ? standing.roles.length === 0 : !standing.roles.includes(right)) {
    const need = ROLE_NAMES[right === 'any' ? 'support' : right];
    throw new BizError(
      ErrorCode.FORBIDDEN,
      right === 'any'
        ? { 'zh-CN': '需要至少一个运营角色', 'en-US': 'this needs an operator role' }
        : { 'zh-CN': `需要${need['zh-CN']}角色`, 'en-US': `this needs the ${need['en-US']} role` },
      403,
    );
  }
}
