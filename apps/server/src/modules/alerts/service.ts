import { type AlertList, ALERTS_RECENT_RESOLVED, ErrorCode, type OperatorAlert } from '@coffer/contract';
import { BizError, notFound } from '../../core/errors.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import type { SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction, type Query } from '../../db/transaction.ts';

interface AlertRow {
  id: string | number;
  kind: OperatorAlert['kind'];
  subject_type: OperatorAlert['subjectType'];
  subject_id: string | number;
  network_id: number | null;
  network_name: string | null;
  facts: Record<string, string> | string;
  since: Date | string;
  opened_at: Date | string;
  resolved_at: Date | string | null;
  mailed_at: Date | string | null;
  acknowledged_at: Date | string | null;
  acknowledged_by: string | null;
  acknowledge_reason: string | null;
}

const SELECT = `select a.id, a.kind, a.subject_type, a.subject_id, a.network_id, n.name as network_name, a.facts, a.since,
        a.opened_at, a.resolved_at, a.mailed_at, a.acknowledged_at, u.email as acknowledged_by, a.acknowledge_reason
   from operator_alerts a left join networks n on n.id = a.network_id left join users u on u.id = a.acknowledged_by`;

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function toAlert(r: AlertRow): OperatorAlert {
  return {
    id: Number(r.id),
    kind: r.kind,
    subjectType: r.subject_type,
    subjectId: Number(r.subject_id),
    networkId: r.network_id === null ? null : Number(r.network_id),
    networkName: r.network_name,
    facts: typeof r.facts === 'string' ? (JSON.parse(r.facts) as Record<string, string>) : r.facts,
    since: new Date(r.since).toISOString(),
    openedAt: new Date(r.opened_at).toISOString(),
    resolvedAt: iso(r.resolved_at),
    mailedAt: iso(r.mailed_at),
    acknowledgedAt: iso(r.acknowledged_at),
    acknowledgedBy: r.acknowledged_by,
    acknowledgeReason: r.acknowledge_reason,
  };
}

/** The open alerts and the latest resolved ones, each newest first, with the badge's count. */
export async function listAlerts(database: Database): Promise<AlertList> {
  const open = await database.sql.query<AlertRow>(`${SELECT} where a.resolved_at is null order by a.opened_at desc, a.id desc`);
  const resolved = await database.sql.query<AlertRow>(
    `${SELECT} where a.resolved_at is not null order by a.resolved_at desc, a.id desc limit $1`,
    [ALERTS_RECENT_RESOLVED],
  );
  return {
    open: open.map(toAlert),
    resolved: resolved.map(toAlert),
    unacknowledged: open.filter((r) => r.acknowledged_at === null).length,
  };
}

async function alertById(q: Query, id: number): Promise<OperatorAlert> {
  const [row] = await q<AlertRow>(`${SELECT} where a.id = $1`, [id]);
  if (!row) throw notFound();
  return toAlert(row);
}

/**
 * An operator says they have it in hand: the alert leaves the badge's count but stays open
 * until its condition clears. Audited (alert.acknowledge) with the reason in the same
 * transaction. 4004 unknown id, 3050 already resolved, 3051 already acknowledged.
 */
export async function acknowledgeAlert(
  database: Database,
  operator: Pick<SessionUser, 'id' | 'email'>,
  id: number,
  reason: string,
): Promise<OperatorAlert> {
  return inTransaction(database, async (q) => {
    const [row] = await q<{ resolved_at: unknown; acknowledged_at: unknown; key: string }>(
      'select key, resolved_at, acknowledged_at from operator_alerts where id = $1 for update',
      [id],
    );
    if (!row) throw notFound();
    if (row.resolved_at !== null) throw new BizError(ErrorCode.ALERT_RESOLVED);
    if (row.acknowledged_at !== null) throw new BizError(ErrorCode.ALERT_ALREADY_ACKNOWLEDGED);
    await q('update operator_alerts set acknowledged_at = now(), acknowledged_by = $2, acknowledge_reason = $3 where id = $1', [
      id,
      operator.id,
      reason,
    ]);
    await recordOperatorAction(q, {
      ...operatorOf(operator),
      action: 'alert.acknowledge',
      targetType: 'operator_alert',
      targetId: id,
      reason,
      before: { key: row.key, acknowledged: false },
      after: { key: row.key, acknowledged: true },
    });
    return alertById(q, id);
  });
}
