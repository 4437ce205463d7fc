import type { Database } from '../../db/client.ts';
import { startPeriodic } from '../../core/periodic.ts';

/** Most closed activities looked at per tick (the rest wait for the next one). */
const DUE_PER_TICK = 50;

export interface PayoutLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PayoutOptions {
  /** Called after each winner's prize committed (tests use it to stop the process midway). */
  onPaid?: (activityId: number, rank: number) => void | Promise<void>;
}

export interface TickResult {
  /** Activities looked at, and winners paid in this tick. */
  activities: number;
  paid: number;
}

/**
 * One run of the payout job: every activity whose window has closed and that is not paid yet is
 * settled (coffer_activity_settle: winners fixed once, only when fully funded and no transaction
 * that could still add a record to the window is open), then its winners are paid one per
 * statement (coffer_activity_pay_next: prize entry + winner row + notice in one transaction).
 * Killed between two winners, the next run pays the rest; a winner's entry_id is set once, and
 * the activity row lock makes several processes running this at once take turns.
 */
export async function payoutTick(database: Pick<Database, 'sql'>, opts: PayoutOptions = {}): Promise<TickResult> {
  const due = await database.sql.query<{ id: number }>(
    `select id from activities
     where paid_at is null and ends_at <= now()
       and (settled_at is not null or activity_funded(id) >= activity_prize_total(id))
     order by ends_at, id limit $1`,
    [DUE_PER_TICK],
  );
  let paid = 0;
  for (const { id } of due) {
    const activityId = Number(id);
    const [settled] = await database.sql.query<{ status: string }>('select coffer_activity_settle($1) as status', [activityId]);
    if (settled?.status !== 'paying') continue;
    for (;;) {
      const [next] = await database.sql.query<{ rank: number | null }>('select coffer_activity_pay_next($1) as rank', [activityId]);
      if (next?.rank === null || next?.rank === undefined) break;
      paid++;
      await opts.onPaid?.(activityId, Number(next.rank));
    }
  }
  return { activities: due.length, paid };
}

/**
 * Runs payoutTick every `intervalMs` on an unref'd timer (never keeps the process alive).
 * stop() ends the timer and waits for a run in progress, so the database can be closed after it.
 */
export function startActivityPayouts(opts: { database: Pick<Database, 'sql'>; log: PayoutLog; intervalMs: number }) {
  return startPeriodic({
    intervalMs: opts.intervalMs,
    log: opts.log,
    failure: 'activity payout failed; next run retries',
    run: async () => {
      const r = await payoutTick(opts.database);
      if (r.paid > 0) opts.log.info({ paid: r.paid }, 'activities: prizes paid');
    },
  });
}
