import type { AdjustmentPage, LedgerAuditRun, LedgerAuditRunData } from '@coffer/contract';
import { trimDecimal } from '@coffer/contract';
import { recordOperatorAction } from '../../core/operator-audit.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { auditLedger } from '../../ledger/audit.ts';

interface AdjustmentRow {
  id: number;
  entry_id: number;
  user_id: number;
  email: string;
  currency_id: number;
  code: string;
  amount: string;
  reason: string;
  actor: string;
  actor_user_id: number | null;
  created_at: Date | string;
}

/** The adjustments log (table `adjustments`, migration 0004), newest first. */
export async function adjustmentsPage(
  database: Database,
  q: { page: number; pageSize: number; uid?: number | undefined },
): Promise<AdjustmentPage> {
  const uid = q.uid ?? null;
  const [count] = await database.sql.query<{ total: number }>(
    'select count(*)::int as total from adjustments where $1::bigint is null or user_id = $1',
    [uid],
  );
  const rows = await database.sql.query<AdjustmentRow>(
    `select a.id, a.entry_id, a.user_id, u.email, a.currency_id, c.code, a.amount::text as amount, a.reason,
            a.actor, a.actor_user_id, a.created_at
       from adjustments a join users u on u.id = a.user_id join currencies c on c.id = a.currency_id
      where $1::bigint is null or a.user_id = $1
      order by a.id desc limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`,
    [uid],
  );
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      entryId: Number(r.entry_id),
      uid: Number(r.user_id),
      email: r.email,
      currencyId: r.currency_id,
      code: r.code,
      amount: trimDecimal(r.amount),
      reason: r.reason,
      actor: r.actor,
      actorUserId: r.actor_user_id === null ? null : Number(r.actor_user_id),
      createdAt: new Date(r.created_at).toISOString(),
    })),
    total: count?.total ?? 0,
    page: q.page,
    pageSize: q.pageSize,
  };
}

interface RunRow {
  id: number;
  ok: boolean;
  summary: Record<string, number>;
  actor: string;
  ran_at: Date | string;
}

const toRun = (r: RunRow): LedgerAuditRun => ({
  id: Number(r.id),
  ok: r.ok,
  summary: r.summary,
  actor: r.actor,
  ranAt: new Date(r.ran_at).toISOString(),
});

/**
 * Runs every ledger check and keeps the result (ledger_audit_runs) with who ran it; the run
 * and its audit-trail row commit together. The checks themselves read outside the transaction.
 */
export async function runLedgerAudit(database: Database, by: { actorUserId: number | null; actor: string }): Promise<LedgerAuditRunData> {
  const report = await auditLedger(database);
  const summary = Object.fromEntries(report.checks.map((c) => [c.name, c.violations]));
  const run = await inTransaction(database, async (q) => {
    const [row] = await q<RunRow>(
      `insert into ledger_audit_runs (ok, summary, actor_user_id, actor) values ($1, $2::jsonb, $3, $4)
       returning id, ok, summary, actor, ran_at`,
      [report.ok, JSON.stringify(summary), by.actorUserId, by.actor],
    );
    await recordOperatorAction(q, {
      ...by,
      action: 'ledger.audit.run',
      targetType: 'ledger_audit_run',
      targetId: Number(row!.id),
      before: null,
      after: { ok: report.ok, summary },
    });
    return row!;
  });
  return { run: toRun(run), report };
}

/** The latest stored audit run, or null before the first. */
export async function lastAuditRun(database: Database): Promise<LedgerAuditRun | null> {
  const [row] = await database.sql.query<RunRow>('select id, ok, summary, actor, ran_at from ledger_audit_runs order by id desc limit 1');
  return row ? toRun(row) : null;
}
