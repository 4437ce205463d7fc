import { ErrorCode } from '@coffer/contract';
import type { FastifyBaseLogger } from 'fastify';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { rethrowLedgerError, sqlState } from '../../ledger/sql-errors.ts';
import { plain } from './pricing.ts';

/** Who sets a house limit: an operator (user id and e-mail) or the configuration ('config'). */
export interface HouseLimitActor {
  actorUserId: number | null;
  actor: string;
  reason: string | null;
}

/** The actor of the limits applied from HOUSE_LIMITS at start (operator_actions.actor). */
export const CONFIG_ACTOR: HouseLimitActor = { actorUserId: null, actor: 'config', reason: 'HOUSE_LIMITS' };

/**
 * The house may owe at most `limit` of a currency: its floor becomes −limit. A house that
 * already owes more keeps its current balance as the floor (no further outflow) rather
 * than breaking the ledger's floor check. Through coffer_house_limit_set (drizzle/0020), which
 * records the change in the operator audit trail in the same transaction, and changes (and
 * records) nothing when the limit and floor are already so (`changed: false`).
 */
export async function setHouseLimit(database: Database, currencyId: number, limit: string, by: HouseLimitActor) {
  let row: { h_changed: boolean; h_limit: string; h_balance: string; h_min_balance: string } | undefined;
  try {
    [row] = await database.sql.query<NonNullable<typeof row>>(
      `select h_changed, h_limit::text, h_balance::text, h_min_balance::text
         from coffer_house_limit_set($1, $2::numeric, $3, $4, $5)`,
      [currencyId, limit, by.actorUserId, by.actor, by.reason],
    );
  } catch (e) {
    if (sqlState(e) === 'CB003') throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'currencyId');
    rethrowLedgerError(e);
  }
  return {
    currencyId,
    limit: plain(row!.h_limit),
    balance: plain(row!.h_balance),
    minBalance: plain(row!.h_min_balance),
    changed: row!.h_changed,
  };
}

/**
 * Seeds HOUSE_LIMITS at start for currencies that have no house limit yet; unknown codes are
 * reported, not fatal. A currency with a limit keeps it: once set (by an operator or an
 * earlier start) the limit is operator data, and a restart must never undo a change made in
 * the console.
 */
export async function applyConfiguredHouseLimits(
  database: Database,
  limits: { code: string; limit: string }[],
  log: FastifyBaseLogger,
): Promise<void> {
  if (limits.length === 0) return;
  const rows = await database.sql.query<{ id: number; code: string; has_limit: boolean }>(
    `select c.id, c.code, exists (select 1 from house_limits h where h.currency_id = c.id) as has_limit from currencies c`,
  );
  const byCode = new Map(rows.map((r) => [r.code.toUpperCase(), r]));
  for (const { code, limit } of limits) {
    const currency = byCode.get(code);
    if (currency === undefined) {
      log.warn({ code }, 'HOUSE_LIMITS names an unknown currency; ignored');
      continue;
    }
    if (currency.has_limit) continue;
    await setHouseLimit(database, currency.id, limit, CONFIG_ACTOR);
  }
}
