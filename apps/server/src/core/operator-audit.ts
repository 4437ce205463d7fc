import type { Query } from '../db/transaction.ts';

/** One operator action as the audit trail keeps it (migration 0017, `operator_actions`). */
export interface OperatorAction {
  /** The operator's user id; null for a command-line action. */
  actorUserId: number | null;
  /** The operator's e-mail, or "cli:<os user>". */
  actor: string;
  /** Dotted action name, e.g. "banner.create", "swap.pair.update", "user.disable". */
  action: string;
  targetType: string;
  targetId: string | number | null;
  reason?: string | null;
  /** The record before the change (null for a create) and after it (null for a delete). */
  before: unknown;
  after: unknown;
}

/** Who is acting, from a signed-in operator's request. */
export function operatorOf(user: { id: number; email: string }): Pick<OperatorAction, 'actorUserId' | 'actor'> {
  return { actorUserId: user.id, actor: user.email };
}

/**
 * Appends one row to the operator audit trail. Pass the `q` of the transaction that makes the
 * change (db/transaction.ts `inTransaction`), so the record and the change commit or roll back
 * together.
 */
export async function recordOperatorAction(q: Query, a: OperatorAction): Promise<number> {
  const [row] = await q<{ id: number }>('select coffer_operator_action($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb) as id', [
    a.actorUserId,
    a.actor,
    a.action,
    a.targetType,
    a.targetId === null ? null : String(a.targetId),
    a.reason ?? null,
    a.before === null || a.before === undefined ? null : JSON.stringify(a.before),
    a.after === null || a.after === undefined ? null : JSON.stringify(a.after),
  ]);
  return Number(row?.id);
}
