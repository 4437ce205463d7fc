import type { Query } from '../db/transaction.ts';
import { canMove, MACHINES, type MachineName, type StatusOf } from './state-machines.ts';

/** A SQL expression for a column set with a move (`attempts + 1`, `now()`), not a parameter. */
export interface SqlExpr {
  sql: string;
}
export const sqlExpr = (sql: string): SqlExpr => ({ sql });

export interface Move<M extends MachineName> {
  machine: M;
  id: number;
  /** the status the caller saw; the row moves only if it is still in it (or in one of them) */
  from: StatusOf<M> | readonly StatusOf<M>[];
  to: StatusOf<M>;
  /** other columns written with the move: values are parameters, sqlExpr() are SQL */
  set?: Readonly<Record<string, unknown>>;
}

const COLUMN = /^[a-z_][a-z0-9_]*$/;

/**
 * The one way a custody status is written (docs/decisions/037): `update <table> set status =
 * to ... where id = $id and status = from`, inside the caller's transaction, and for a machine
 * with a user event (withdrawals) the event row in the same transaction. Returns whether the
 * row moved: false when someone else moved it first (the caller then does nothing more). A
 * move that is not in the machine's table throws before any SQL runs; the trigger of
 * migration 0035 refuses it again in the database.
 */
export async function transition<M extends MachineName>(q: Query, move: Move<M>): Promise<boolean> {
  const spec = MACHINES[move.machine];
  const froms = (Array.isArray(move.from) ? move.from : [move.from]) as StatusOf<M>[];
  for (const from of froms) {
    if (!canMove(move.machine, from, move.to)) {
      throw new Error(`${move.machine} ${move.id}: ${from} -> ${move.to} is not an allowed move`);
    }
  }
  // a list travels as one text parameter (the drivers expand a JS array into several)
  const params: unknown[] = [move.id, move.to, froms.join(',')];
  const sets = ['status = $2', 'updated_at = now()'];
  for (const [column, value] of Object.entries(move.set ?? {})) {
    if (!COLUMN.test(column) || column === 'status') throw new Error(`transition: bad column ${column}`);
    if (value !== null && typeof value === 'object' && 'sql' in value) {
      sets.push(`${column} = ${(value as SqlExpr).sql}`);
    } else {
      params.push(typeof value === 'bigint' ? value.toString() : value);
      sets.push(`${column} = $${params.length}`);
    }
  }
  const returning = 'userEvent' in spec ? 'user_id' : 'id';
  const rows = await q<{ user_id?: number | string }>(
    `update ${spec.table} set ${sets.join(', ')} where id = $1 and status = any(string_to_array($3, ',')) returning ${returning}`,
    params,
  );
  const row = rows[0];
  if (!row) return false;
  if ('userEvent' in spec) {
    await q('insert into user_events (user_id, type, ref_id, status) values ($1, $2, $3, $4)', [
      row.user_id,
      spec.userEvent,
      move.id,
      move.to,
    ]);
  }
  return true;
}
