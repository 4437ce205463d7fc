import type { AuditTrailPage, OperatorActionRecord } from '@coffer/contract';
import type { Database } from '../../db/client.ts';

export interface AuditTrailFilter {
  page: number;
  pageSize: number;
  actor?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
}

interface ActionRow {
  id: number;
  actor_user_id: number | null;
  actor: string;
  action: string;
  target_type: string;
  target_id: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
  created_at: Date | string;
}

/** Escapes LIKE wildcards so a search text matches only itself. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The operator audit trail, newest first. `action` matches the name or a dotted prefix:
 * "user" and "user." both match "user.disable" (never "username.x").
 */
export async function auditTrail(database: Database, f: AuditTrailFilter): Promise<AuditTrailPage> {
  const params: unknown[] = [];
  const where: string[] = [];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (f.actor !== undefined) add((n) => `lower(actor) = lower(${n})`, f.actor);
  if (f.action !== undefined) {
    const name = f.action.replace(/\.$/, '');
    add((n) => `(action = ${n} or left(action, length(${n}) + 1) = ${n} || '.')`, name);
  }
  if (f.targetType !== undefined) add((n) => `target_type = ${n}`, f.targetType);
  if (f.targetId !== undefined) add((n) => `target_id = ${n}`, f.targetId);
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  const [count] = await database.sql.query<{ total: number }>(`select count(*)::int as total from operator_actions ${filter}`, params);
  const rows = await database.sql.query<ActionRow>(
    `select id, actor_user_id, actor, action, target_type, target_id, reason, before, after, created_at
       from operator_actions ${filter}
      order by id desc limit ${f.pageSize} offset ${(f.page - 1) * f.pageSize}`,
    params,
  );
  return { list: rows.map(toRecord), total: count?.total ?? 0, page: f.page, pageSize: f.pageSize };
}

function toRecord(r: ActionRow): OperatorActionRecord {
  return {
    id: Number(r.id),
    actorUserId: r.actor_user_id === null ? null : Number(r.actor_user_id),
    actor: r.actor,
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    reason: r.reason,
    before: r.before ?? null,
    after: r.after ?? null,
    createdAt: new Date(r.created_at).toISOString(),
  };
}
