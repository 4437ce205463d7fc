import { type SQL, sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/** Raw SQL with $1..$n parameters, run on one connection (inside a transaction). */
export type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

function toSql(text: string, params: unknown[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) {
    const index = Number(m[1]) - 1;
    if (index < 0 || index >= params.length) throw new Error(`query parameter $${m[1]} missing`);
    chunks.push(sql.raw(text.slice(last, m.index)));
    chunks.push(sql`${params[index]}`);
    last = (m.index ?? 0) + m[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

/**
 * Runs `fn` in one database transaction (both drivers; PGlite has a single connection, so
 * nothing inside may use database.sql: only `q`).
 */
export function inTransaction<T>(database: Database, fn: (q: Query) => Promise<T>): Promise<T> {
  return database.db.transaction(async (tx) => {
    const q: Query = async <R>(text: string, params: unknown[] = []) => {
      const res = (await tx.execute(toSql(text, params))) as unknown as { rows: R[] };
      return res.rows;
    };
    return fn(q);
  });
}
