import { z } from 'zod';
import { isoTime } from './common.ts';
import { operatorReason } from './admin.ts';

/**
 * Alerts that reach operators (/api/admin/alerts, operators only). One alert per condition
 * while it lasts: it opens once (and is mailed once to every operator), resolves when the
 * condition clears, and a recurrence opens a new one. Acknowledging takes it off the console's
 * badge; it stays open until the condition clears.
 */

/** What an alert is about, in the order the console lists them. */
export const ALERT_KINDS = ['incident_open', 'reconcile_drift', 'hot_below_floor', 'payout_waiting', 'review_too_long'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_SUBJECTS = ['incident', 'network', 'withdrawal'] as const;
export type AlertSubject = (typeof ALERT_SUBJECTS)[number];
/** Resolved alerts the list returns after the open ones (newest first). */
export const ALERTS_RECENT_RESOLVED = 50;

export const operatorAlert = z.object({
  id: z.number().int(),
  kind: z.enum(ALERT_KINDS),
  subjectType: z.enum(ALERT_SUBJECTS),
  subjectId: z.number().int(),
  networkId: z.number().int().nullable(),
  networkName: z.string().nullable(),
  /**
   * Facts behind it, as text (amounts as decimal strings): incidentKind, detail (incident),
   * drift and code (reconcile_drift), floor, short and code (hot_below_floor), waitReason,
   * amount and code (payout_waiting), amount and code (review_too_long).
   */
  facts: z.record(z.string(), z.string()),
  /** When the condition began (incident opened, the wait began, the withdrawal entered review). */
  since: isoTime,
  openedAt: isoTime,
  resolvedAt: isoTime.nullable(),
  mailedAt: isoTime.nullable(),
  acknowledgedAt: isoTime.nullable(),
  acknowledgedBy: z.string().nullable(),
  acknowledgeReason: z.string().nullable(),
});
export type OperatorAlert = z.infer<typeof operatorAlert>;

/** GET /api/admin/alerts: the open alerts and the recently resolved ones, each newest first. */
export const alertList = z.object({
  open: z.array(operatorAlert),
  resolved: z.array(operatorAlert),
  /** Open alerts nobody acknowledged yet: the console's badge. */
  unacknowledged: z.number().int(),
});
export type AlertList = z.infer<typeof alertList>;

/** POST /api/admin/alerts/{id}/acknowledge. 3050 resolved, 3051 already acknowledged, 4004 unknown id. */
export const alertAcknowledgeBody = z.object({ reason: operatorReason });
export type AlertAcknowledgeBody = z.infer<typeof alertAcknowledgeBody>;
