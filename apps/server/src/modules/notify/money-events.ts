import { type Locale, maskEmail, trimDecimal } from '@coffer/contract';
import type { Database } from '../../db/client.ts';
import { startPeriodic } from '../../core/periodic.ts';
import type { NoticeEvent, Notifier, NotifierLog } from './notifier.ts';
import { escapeMarkdown, type MoneyEvent, moneyWords } from './templates.ts';

/** How often the jobs leader turns new deposit and withdrawal events into notices. */
export const MONEY_EVENTS_INTERVAL_MS = 2000;
/** Events read per statement; a longer backlog is worked through in several. */
export const MONEY_EVENTS_BATCH = 500;
/**
 * The progress mark stays this far behind: an event whose transaction began earlier but
 * committed after a newer one (ids are taken in insert order, seen in commit order) is still
 * found; the notices' unique key keeps a second look from notifying twice.
 */
export const MONEY_EVENTS_LOOKBACK_SECONDS = 300;

const RETURNED = ['failed', 'cancelled', 'rejected'] as const;

interface EventRow {
  id: number;
  user_id: number;
  type: 'deposit' | 'withdraw';
  ref_id: number;
  status: string;
  amount: string;
  /** withdrawals: amount plus fee, what a returned one gave back */
  total: string | null;
  code: string;
  network: string;
}

const both = (e: MoneyEvent) => ({ 'zh-CN': moneyWords('zh-CN', e), 'en-US': moneyWords('en-US', e) }) satisfies Record<Locale, unknown>;

function toEvent(row: EventRow): NoticeEvent {
  const base = { amount: trimDecimal(String(row.amount)), code: row.code, network: row.network };
  const money: MoneyEvent =
    row.type === 'deposit'
      ? { kind: 'deposit_credited', ...base }
      : row.status === 'completed'
        ? { kind: 'withdraw_completed', ...base }
        : {
            kind: 'withdraw_returned',
            ...base,
            returned: trimDecimal(String(row.total)),
            status: row.status as (typeof RETURNED)[number],
          };
  return {
    userId: Number(row.user_id),
    kind: money.kind,
    category: 'money',
    dedupeKey: `${row.type}:${row.ref_id}:${row.status}`,
    words: both(money),
  };
}

/**
 * One pass: the committed deposit credits and final withdrawals (user_events, written in the
 * ledger's own transaction by the SQL functions that move the money) that have no notice yet.
 * Answers how many it found.
 */
export async function notifyMoneyEvents(database: Database, notifier: Notifier): Promise<number> {
  const sql = database.sql;
  const [progress] = await sql.query<{ last: string }>('select last_event_id::text as last from notify_progress');
  const rows = await sql.query<EventRow>(
    `select e.id, e.user_id, e.type, e.ref_id, e.status, coalesce(d.amount, w.amount)::text as amount, (w.amount + w.fee)::text as total, c.code, n.name as network
     from user_events e
     left join deposits d on e.type = 'deposit' and d.id = e.ref_id
     left join withdrawals w on e.type = 'withdraw' and w.id = e.ref_id
     join networks n on n.id = coalesce(d.network_id, w.network_id)
     join currencies c on c.id = n.currency_id
     where e.id > $1::bigint
       and ((e.type = 'deposit' and e.status = 'credited') or (e.type = 'withdraw' and e.status = any($2::text[])))
       and not exists (select 1 from notices x where x.dedupe_key = e.type || ':' || e.ref_id || ':' || e.status)
     order by e.id limit $3`,
    [progress?.last ?? '0', ['completed', ...RETURNED], MONEY_EVENTS_BATCH],
  );
  await notifier.publish(rows.map(toEvent));
  // Everything up to the last row read is noticed now (all of it when the batch was not full).
  const upTo = rows.length === MONEY_EVENTS_BATCH ? String(rows.at(-1)!.id) : null;
  await sql.query(
    `update notify_progress set last_event_id = greatest(last_event_id, least(coalesce($1::bigint, 9223372036854775807),
       (select coalesce(max(id), 0) from user_events where id > last_event_id
          and created_at < now() - make_interval(secs => $2))))`,
    [upTo, MONEY_EVENTS_LOOKBACK_SECONDS],
  );
  return rows.length;
}

/** The jobs leader's loop over notifyMoneyEvents (started by runtime.ts). */
export function startMoneyEventNotices(opts: { database: Database; notifier: Notifier; log: NotifierLog }) {
  return startPeriodic({
    intervalMs: MONEY_EVENTS_INTERVAL_MS,
    log: opts.log,
    failure: 'money event notices failed (next run retries)',
    run: async () => {
      while ((await notifyMoneyEvents(opts.database, opts.notifier)) === MONEY_EVENTS_BATCH) {}
    },
  });
}

interface TransferRow {
  id: number;
  to_user_id: number;
  amount: string;
  code: string;
  from_id: number;
  from_email: string;
}

/**
 * Notices of received transfers, from the ids of transfers that committed (the transfer
 * writer's answers). One statement per flush for however many landed meanwhile.
 */
export async function notifyTransfers(database: Database, notifier: Notifier, ids: number[]): Promise<void> {
  const rows = await database.sql.query<TransferRow>(
    `select t.id, t.to_user_id, t.amount::text as amount, c.code, u.id as from_id, u.email as from_email
     from transfers t join currencies c on c.id = t.currency_id join users u on u.id = t.from_user_id
     where t.id = any($1::bigint[])`,
    [ids],
  );
  await notifier.publish(
    rows.map((row) => {
      const from = `UID ${row.from_id} (${escapeMarkdown(maskEmail(row.from_email))})`;
      const money: MoneyEvent = { kind: 'transfer_received', amount: trimDecimal(String(row.amount)), code: row.code, from };
      return { userId: Number(row.to_user_id), kind: money.kind, category: 'money', dedupeKey: `transfer:${row.id}`, words: both(money) };
    }),
  );
}
