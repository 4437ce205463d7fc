import type { Database } from '../db/client.ts';
import type { Clock } from './clock.ts';
import { startPeriodic } from './periodic.ts';

/**
 * Housekeeping: rows that only ever matter for a short while are deleted once they have
 * been dead for a retention, so no table grows without bound (a script once stored 400
 * swap quotes in 2.4 s). Every API process runs it; the deletes are idempotent, so two
 * processes running at once only share the work.
 */

/** How often the server runs the cleanup. */
export const CLEANUP_INTERVAL_MINUTES = 15;
/** Expired, unused swap quotes are kept this long after expiry (a quote a swap used is kept with the swap). */
export const SWAP_QUOTE_RETENTION_HOURS = 1;
/** E-mail codes are kept this long after they expired or were used (the wrong-code alert reads its language). */
export const EMAIL_CODE_RETENTION_HOURS = 24;
/** Expired or signed-out sessions (with their IP and user agent) are kept this long, for investigations. */
export const SESSION_RETENTION_DAYS = 30;
/** Sign-in attempts (security centre's history, with IP and user agent) are kept this long. */
export const SIGN_IN_HISTORY_RETENTION_DAYS = 180;
/** Sign-in and passkey challenges (two-factor) are kept this long after they expired. */
export const AUTH_CHALLENGE_RETENTION_HOURS = 1;
/** Rows per DELETE statement: keeps each statement's locks and WAL small on a large backlog. */
export const CLEANUP_BATCH_ROWS = 5000;

export interface CleanupCounts {
  swapQuotes: number;
  emailCodes: number;
  sessions: number;
  signIns: number;
  authChallenges: number;
}

const HOUR_S = 3600;

/** One DELETE of at most $2 rows picked by `where` (with $1 the cutoff); answers how many. */
const batchDelete = (table: string, where: string) => `
  with gone as (
    delete from ${table} where id in (select id from ${table} t where ${where} limit $2)
    returning 1
  )
  select count(*)::int as n from gone`;

const STATEMENTS: Record<keyof CleanupCounts, { sql: string; retentionS: number }> = {
  swapQuotes: {
    sql: batchDelete('swap_quotes', 't.expires_at < $1 and not exists (select 1 from swaps s where s.quote_id = t.id)'),
    retentionS: SWAP_QUOTE_RETENTION_HOURS * HOUR_S,
  },
  emailCodes: {
    sql: batchDelete('email_codes', 't.expires_at < $1 or t.consumed_at < $1'),
    retentionS: EMAIL_CODE_RETENTION_HOURS * HOUR_S,
  },
  sessions: {
    sql: batchDelete('sessions', 't.expires_at < $1 or t.revoked_at < $1'),
    retentionS: SESSION_RETENTION_DAYS * 24 * HOUR_S,
  },
  signIns: {
    sql: batchDelete('sign_in_attempts', 't.created_at < $1'),
    retentionS: SIGN_IN_HISTORY_RETENTION_DAYS * 24 * HOUR_S,
  },
  authChallenges: {
    sql: batchDelete('auth_challenges', 't.expires_at < $1'),
    retentionS: AUTH_CHALLENGE_RETENTION_HOURS * HOUR_S,
  },
};

/**
 * Deletes everything past its retention, batch by batch; answers how many rows of each. The
 * cutoffs are measured from `clock` (default Date.now): a test moves it past a retention
 * instead of waiting one out.
 */
export async function cleanupExpired(
  database: Pick<Database, 'sql'>,
  opts: { batchSize?: number; clock?: Clock } = {},
): Promise<CleanupCounts> {
  const batchSize = opts.batchSize ?? CLEANUP_BATCH_ROWS;
  const now = (opts.clock ?? Date.now)();
  const counts: CleanupCounts = { swapQuotes: 0, emailCodes: 0, sessions: 0, signIns: 0, authChallenges: 0 };
  for (const [name, { sql, retentionS }] of Object.entries(STATEMENTS) as [
    keyof CleanupCounts,
    (typeof STATEMENTS)[keyof CleanupCounts],
  ][]) {
    const cutoff = new Date(now - retentionS * 1000);
    for (;;) {
      const [row] = await database.sql.query<{ n: number }>(sql, [cutoff, batchSize]);
      const n = Number(row?.n ?? 0);
      counts[name] += n;
      if (n < batchSize) break;
    }
  }
  return counts;
}

export interface CleanupLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Runs cleanupExpired every `intervalMs` (default CLEANUP_INTERVAL_MINUTES) on an unref'd
 * timer, so it never keeps the process alive. stop() ends the timer and waits for a run in
 * progress, so the database can be closed after it.
 */
export function startCleanup(opts: { database: Pick<Database, 'sql'>; log: CleanupLog; intervalMs?: number; clock?: Clock }) {
  return startPeriodic({
    intervalMs: opts.intervalMs ?? CLEANUP_INTERVAL_MINUTES * 60_000,
    log: opts.log,
    failure: 'cleanup failed; next run retries',
    run: async () => {
      const counts = await cleanupExpired(opts.database, { clock: opts.clock });
      if (Object.values(counts).some((n) => n > 0)) opts.log.info({ deleted: counts }, 'cleanup: expired rows deleted');
    },
  });
}
