import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, SqlClient } from '../db/client.ts';

/**
 * Rate limits kept in the database (table rate_limits, migration 0013), so that every API
 * process on one database shares one count and a restart forgets nothing. A window opens at
 * the first hit of a key and lasts `windowMs`; the first hit after it closed opens a new one
 * (the semantics of @fastify/rate-limit's in-memory store). Every operation is one statement,
 * atomic on PostgreSQL and PGlite alike: parallel hits on one key each get their own number.
 */

export interface Hit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window closes. */
  resetInMs: number;
}

/** Windows that closed are deleted this often (each process sweeps; a sweep is one DELETE). */
export const RATE_LIMIT_SWEEP_INTERVAL_MS = 10 * 60_000;

const WINDOW = `$2::int * interval '1 millisecond'`;
const RESET_IN_MS = `greatest(0, ceil(extract(epoch from (reset_at - now())) * 1000))::float8 as reset_in_ms`;

const HIT_SQL = `insert into rate_limits as r (key, window_ms, count, reset_at)
values ($1, $2::int, 1, now() + ${WINDOW})
on conflict (key, window_ms) do update set
  count = case when r.reset_at <= now() then 1 else r.count + 1 end,
  reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
returning count, ${RESET_IN_MS}`;

type Row = { count: number; reset_in_ms: number };
const toHit = (row: Row): Hit => ({ count: Number(row.count), resetInMs: Number(row.reset_in_ms) });

/** Counts one hit of `key` in its window and answers the count so far. */
export async function hitRateLimit(sql: SqlClient, key: string, windowMs: number): Promise<Hit> {
  const [row] = await sql.query<Row>(HIT_SQL, [key, Math.trunc(windowMs)], { name: 'rate_limit_hit' });
  return toHit(row!);
}

/**
 * Counts one hit only while the window holds fewer than `cap`; null when the cap is reached
 * (nothing counted). A caller that reserves a try this way can give it back with
 * refundRateLimit, so the count can never pass the cap, even with parallel requests.
 */
export async function takeUnderCap(sql: SqlClient, key: string, windowMs: number, cap: number): Promise<Hit | null> {
  const [row] = await sql.query<Row>(
    `insert into rate_limits as r (key, window_ms, count, reset_at)
     values ($1, $2::int, 1, now() + ${WINDOW})
     on conflict (key, window_ms) do update set
       count = case when r.reset_at <= now() then 1 else r.count + 1 end,
       reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
     where r.reset_at <= now() or r.count < $3::int
     returning count, ${RESET_IN_MS}`,
    [key, Math.trunc(windowMs), cap],
  );
  return row ? toHit(row) : null;
}

/** The current window's count of `key` (0 when none is open), without counting. */
export async function readRateLimit(sql: SqlClient, key: string, windowMs: number): Promise<Hit> {
  const [row] = await sql.query<Row>(
    `select count, ${RESET_IN_MS} from rate_limits where key = $1 and window_ms = $2::int and reset_at > now()`,
    [key, Math.trunc(windowMs)],
  );
  return row ? toHit(row) : { count: 0, resetInMs: 0 };
}

/** Gives one hit back (a reserved try that turned out not to count). */
export async function refundRateLimit(sql: SqlClient, key: string, windowMs: number): Promise<void> {
  await sql.query(`update rate_limits set count = count - 1 where key = $1 and window_ms = $2::int and count > 0 and reset_at > now()`, [
    key,
    Math.trunc(windowMs),
  ]);
}

/** Deletes the rows whose window is over; answers how many. */
export async function sweepRateLimits(sql: SqlClient): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `with gone as (delete from rate_limits where reset_at <= now() returning 1) select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}

/**
 * These functions on the ORM handle, for callers that only have it (checkEmailCode is called
 * with `database.db`): "$n" placeholders become drizzle parameters.
 */
export function sqlClientOf(db: Db): SqlClient {
  return {
    async query<T>(text: string, params: unknown[] = []) {
      const parts = text.split(/\$(\d+)/);
      const statement: SQL = sql.raw(parts[0]!);
      for (let i = 1; i < parts.length; i += 2) {
        statement.append(sql`${params[Number(parts[i]) - 1]}`).append(sql.raw(parts[i + 1]!));
      }
      const res = (await db.execute(statement)) as unknown as { rows: T[] };
      return res.rows;
    },
  };
}

/** Sweeps every RATE_LIMIT_SWEEP_INTERVAL_MS while the app runs. */
export function scheduleRateLimitSweep(app: FastifyInstance, sql: SqlClient): void {
  const timer = setInterval(() => {
    sweepRateLimits(sql).catch((err: unknown) =>
      app.log.warn({ error: err instanceof Error ? err.message : String(err) }, 'rate limit sweep failed'),
    );
  }, RATE_LIMIT_SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];
/** What the plugin really passes to the constructor and to child(): its merged params. */
interface RouteParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A store for @fastify/rate-limit (its `store` option) on the rate_limits table. The plugin
 * makes one child per limited route; its keys are prefixed with the route so that each route
 * counts on its own, as with the in-memory store. Children made by createRateLimit have no
 * route: their key generators carry their own prefix (e.g. "login:").
 */
export function databaseRateLimitStore(sql: SqlClient): FastifyRateLimitStoreCtor {
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    constructor(params?: unknown) {
      const route = (params as RouteParams | undefined)?.routeInfo;
      this.prefix = route?.url ? `${[route.method ?? ''].flat().join(',')} ${route.url}|` : '';
    }

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      hitRateLimit(sql, this.prefix + key, timeWindow).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.resetInMs }),
        (err: Error) => callback(err),
      );
    }

    child(params: unknown) {
      return new DatabaseRateLimitStore(params);
    }
  };
}
