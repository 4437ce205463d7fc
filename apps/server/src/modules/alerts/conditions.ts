import type { AlertKind, AlertSubject } from '@coffer/contract';
import type { Query } from '../../db/transaction.ts';

/** A condition operators must hear about, as read from the tables that hold it. */
export interface AlertCondition {
  kind: AlertKind;
  subjectType: AlertSubject;
  subjectId: number;
  networkId: number | null;
  facts: Record<string, string>;
  since: Date;
}

export interface AlertLimits {
  /** A payout waiting (withdrawals.wait_since) longer than this alerts. */
  payoutWaitMinutes: number;
  /** A withdrawal in review (since it was asked for) longer than this alerts. */
  reviewMinutes: number;
}

/** The condition's key: one open alert per key (operator_alerts_open_key). */
export const alertKey = (c: Pick<AlertCondition, 'kind' | 'subjectType' | 'subjectId'>) => `${c.kind}:${c.subjectType}:${c.subjectId}`;

interface Row {
  kind: AlertKind;
  subject_type: AlertSubject;
  subject_id: string | number;
  network_id: number | null;
  facts: Record<string, string> | string;
  since: Date | string;
}

/**
 * Every condition in force at `now` (the caller's clock; the time limits are measured against
 * it, never against the database's or the process's wall clock):
 * - incident_open: a chain incident other than reconciliation drift, unresolved (per incident);
 * - reconcile_drift: a network with an unresolved reconcile_drift incident or whose latest
 *   reconciliation did not balance (per network);
 * - hot_below_floor: a network whose hot wallet is below its floor (hot_alerts open, per network);
 * - payout_waiting: a queued or broadcast withdrawal waiting (wait_reason) since longer than the limit;
 * - review_too_long: a withdrawal in review since longer than the limit.
 */
export async function currentConditions(q: Query, now: Date, limits: AlertLimits): Promise<AlertCondition[]> {
  const rows = await q<Row>(
    `select 'incident_open' as kind, 'incident' as subject_type, i.id as subject_id, i.network_id,
            jsonb_strip_nulls(jsonb_build_object('incidentKind', i.kind, 'detail', i.detail)) as facts, i.created_at as since
       from chain_incidents i where i.resolved_at is null and i.kind <> 'reconcile_drift'
     union all
     select 'reconcile_drift', 'network', n.id, n.id,
            jsonb_strip_nulls(jsonb_build_object('code', c.code, 'drift', trim_scale(s.drift)::text)),
            least(d.since, case when s.ok = false then s.taken_at end)
       from networks n join currencies c on c.id = n.currency_id
       left join reconcile_snapshots s on s.network_id = n.id
       left join (select network_id, min(created_at) as since from chain_incidents
                   where kind = 'reconcile_drift' and resolved_at is null and network_id is not null group by network_id) d
         on d.network_id = n.id
      where d.network_id is not null or s.ok = false
     union all
     select 'hot_below_floor', 'network', n.id, n.id,
            jsonb_strip_nulls(jsonb_build_object('code', c.code, 'floor', trim_scale(n.hot_floor)::text, 'short', trim_scale(h.amount)::text)),
            h.opened_at
       from hot_alerts h join networks n on n.id = h.network_id join currencies c on c.id = n.currency_id
      where h.closed_at is null and h.kind = 'below_floor'
     union all
     select 'payout_waiting', 'withdrawal', w.id, w.network_id,
            jsonb_strip_nulls(jsonb_build_object('code', c.code, 'amount', trim_scale(w.amount)::text, 'waitReason', w.wait_reason)),
            w.wait_since
       from withdrawals w join currencies c on c.id = w.currency_id
      where w.status in ('queued', 'broadcast') and w.wait_reason is not null
        and w.wait_since <= $1::timestamptz - make_interval(mins => $2::int)
     union all
     select 'review_too_long', 'withdrawal', w.id, w.network_id,
            jsonb_strip_nulls(jsonb_build_object('code', c.code, 'amount', trim_scale(w.amount)::text)),
            w.created_at
       from withdrawals w join currencies c on c.id = w.currency_id
      where w.status = 'review' and w.created_at <= $1::timestamptz - make_interval(mins => $3::int)`,
    [now.toISOString(), limits.payoutWaitMinutes, limits.reviewMinutes],
  );
  return rows.map((r) => ({
    kind: r.kind,
    subjectType: r.subject_type,
    subjectId: Number(r.subject_id),
    networkId: r.network_id === null ? null : Number(r.network_id),
    facts: typeof r.facts === 'string' ? (JSON.parse(r.facts) as Record<string, string>) : r.facts,
    since: new Date(r.since),
  }));
}
