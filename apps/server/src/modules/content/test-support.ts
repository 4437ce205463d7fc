import type { TestApp } from '../../test/harness.ts';

export interface AuditRow {
  actor_user_id: number | null;
  actor: string;
  action: string;
  target_type: string;
  target_id: string | null;
  reason: string | null;
  before: Record<string, unknown> | unknown[] | null;
  after: Record<string, unknown> | unknown[] | null;
}

/** The operator_actions rows of one action (and target), oldest first. */
export function auditRows(t: Pick<TestApp, 'database'>, action: string, targetId?: number | string) {
  return t.database.sql.query<AuditRow>(
    `SELECT actor_user_id, actor, action, target_type, target_id, reason, before, after FROM operator_actions
     WHERE action = $1 AND ($2::text IS NULL OR target_id = $2) ORDER BY id`,
    [action, targetId === undefined ? null : String(targetId)],
  );
}

export const countRows = async (t: Pick<TestApp, 'database'>, table: string) =>
  Number((await t.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);

/** ISO time `ms` from now. */
export const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();
export const HOUR_MS = 3_600_000;

/** Bodies with characters every text field refuses, and one that is too long. */
export const CONTROL_TEXTS = ['nul\u0000', 'bidi \u202e', 'zero\u200bwidth', 'bell\u0007'];
