import type { Database } from '../../db/client.ts';
import { startPeriodic } from '../../core/periodic.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { type AlertLimits, alertKey, currentConditions } from './conditions.ts';
import { alertMail } from './mail.ts';

/** Mail attempts per alert and operator before the worker gives up on that mail (it stays on the badge). */
export const ALERT_MAIL_ATTEMPTS = 5;
/** A claimed mail not marked sent after this is taken as lost (process died mid-send) and may be tried again. */
export const ALERT_MAIL_CLAIM_MINUTES = 10;
/** One key for the transaction-scoped advisory lock that serialises the open/resolve step across processes. */
const ALERT_LOCK = 460_046;

export interface AlertLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface AlertTickOptions {
  database: Database;
  mailer: Mailer;
  limits: AlertLimits;
  log?: AlertLog;
}

export interface AlertTickResult {
  opened: number;
  resolved: number;
  mailed: number;
  mailFailures: number;
}

interface PendingMail {
  alert_id: string | number;
  user_id: string | number;
  email: string;
  language: string | null;
  kind: Parameters<typeof alertMail>[0]['kind'];
  subject_id: string | number;
  network_name: string | null;
  facts: Record<string, string> | string;
  since: Date | string;
}

/**
 * One pass of the alert worker at `now` (the caller's clock): opens an alert for each
 * condition in force that has none open, resolves the open alerts whose condition cleared,
 * then mails every operator about each open alert they have not been mailed yet. Opening and
 * resolving run in one transaction under an advisory lock, and the unique open key refuses a
 * second open row whatever runs concurrently; each mail is claimed by its row
 * (operator_alert_mails) before it is sent, so two workers never mail one operator twice.
 */
export async function alertTick(opts: AlertTickOptions, now: Date): Promise<AlertTickResult> {
  const { database } = opts;
  const at = now.toISOString();
  const { opened, resolved } = await inTransaction(database, async (q) => {
    await q('select pg_advisory_xact_lock($1)', [ALERT_LOCK]);
    const conditions = await currentConditions(q, now, opts.limits);
    let opened = 0;
    for (const c of conditions) {
      const rows = await q(
        `insert into operator_alerts (key, kind, subject_type, subject_id, network_id, facts, since, opened_at)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7::timestamptz, $8::timestamptz)
         on conflict (key) where resolved_at is null do nothing returning id`,
        [alertKey(c), c.kind, c.subjectType, c.subjectId, c.networkId, JSON.stringify(c.facts), c.since.toISOString(), at],
      );
      opened += rows.length;
    }
    const gone = await q(
      `update operator_alerts set resolved_at = $2::timestamptz
        where resolved_at is null and key not in (select jsonb_array_elements_text($1::jsonb)) returning id`,
      [JSON.stringify(conditions.map(alertKey)), at],
    );
    return { opened, resolved: gone.length };
  });
  const { mailed, mailFailures } = await mailPending(opts, now);
  if (opened + resolved + mailFailures > 0) opts.log?.info({ opened, resolved, mailed, mailFailures }, 'operator alerts');
  return { opened, resolved, mailed, mailFailures };
}

/**
 * Mails each open alert to each operator who can act on it (finance, or admin for the networks'
 * settings) not mailed yet, at most ALERT_MAIL_ATTEMPTS tries each.
 */
async function mailPending(opts: AlertTickOptions, now: Date): Promise<Pick<AlertTickResult, 'mailed' | 'mailFailures'>> {
  const sql = opts.database.sql;
  const at = now.toISOString();
  const pending = await sql.query<PendingMail>(
    `select a.id as alert_id, u.id as user_id, u.email, u.language, a.kind, a.subject_id, n.name as network_name, a.facts, a.since
       from operator_alerts a
       cross join users u
       left join networks n on n.id = a.network_id
       left join operator_alert_mails m on m.alert_id = a.id and m.user_id = u.id
      where a.resolved_at is null and u.role = 'operator' and u.disabled_at is null
        and exists (select 1 from operator_roles r where r.user_id = u.id and r.role in ('finance', 'admin'))
        and (m.alert_id is null or (m.sent_at is null and m.attempts < $1))
      order by a.id, u.id`,
    [ALERT_MAIL_ATTEMPTS],
  );
  let mailed = 0;
  let mailFailures = 0;
  for (const p of pending) {
    // the claim: a new row, or another attempt on a row nobody holds (or whose holder died)
    const claimed = await sql.query(
      `insert into operator_alert_mails as m (alert_id, user_id, attempts, claimed_at) values ($1, $2, 1, $3::timestamptz)
       on conflict (alert_id, user_id) do update set attempts = m.attempts + 1, claimed_at = excluded.claimed_at
        where m.sent_at is null and m.attempts < $4
          and (m.claimed_at is null or m.claimed_at < $3::timestamptz - make_interval(mins => $5::int))
       returning attempts`,
      [p.alert_id, p.user_id, at, ALERT_MAIL_ATTEMPTS, ALERT_MAIL_CLAIM_MINUTES],
    );
    if (claimed.length === 0) continue;
    const facts = typeof p.facts === 'string' ? (JSON.parse(p.facts) as Record<string, string>) : p.facts;
    const mail = alertMail(
      { kind: p.kind, subjectId: Number(p.subject_id), networkName: p.network_name, facts, since: new Date(p.since) },
      p.language,
    );
    try {
      await opts.mailer.send({ to: p.email, ...mail });
    } catch (err) {
      mailFailures++;
      // released for the next tick; the attempt is counted
      await sql.query('update operator_alert_mails set claimed_at = null where alert_id = $1 and user_id = $2', [p.alert_id, p.user_id]);
      opts.log?.warn(
        { alert: Number(p.alert_id), error: err instanceof Error ? err.message : String(err) },
        'alert mail failed; retried next tick',
      );
      continue;
    }
    mailed++;
    await sql.query('update operator_alert_mails set sent_at = $3::timestamptz where alert_id = $1 and user_id = $2', [
      p.alert_id,
      p.user_id,
      at,
    ]);
    await sql.query('update operator_alerts set mailed_at = $2::timestamptz where id = $1 and mailed_at is null', [p.alert_id, at]);
  }
  return { mailed, mailFailures };
}

/**
 * Runs alertTick every `intervalMs` with the wall clock (one run at a time; a failed run is
 * logged and the next one tries again). Started by the jobs leader, one process per database.
 */
export function startOperatorAlerts(opts: AlertTickOptions & { intervalMs: number; log: AlertLog; clock?: () => Date }) {
  const clock = opts.clock ?? (() => new Date());
  return startPeriodic({
    intervalMs: opts.intervalMs,
    log: opts.log,
    failure: 'alert check failed; next run retries',
    run: async () => {
      await alertTick(opts, clock());
    },
  });
}
