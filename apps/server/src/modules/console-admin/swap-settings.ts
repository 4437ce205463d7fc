import {
  type AdminSwapPair,
  ErrorCode,
  type HouseLimit,
  type HouseLimitSetData,
  type SwapPairUpdateBody,
  trimDecimal,
} from '@coffer/contract';
import { BizError, notFound } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { rethrowLedgerError, sqlState } from '../../ledger/sql-errors.ts';

/** Who acts, as the audit trail keeps it. */
interface Actor {
  actorUserId: number | null;
  actor: string;
}

interface PairRow {
  id: number;
  from_currency_id: number;
  from_code: string;
  to_currency_id: number;
  to_code: string;
  mid_rate: string;
  spread_bps: number;
  fee_bps: number;
  fee_currency: 'from' | 'to';
  min_amount: string | null;
  max_amount: string | null;
  enabled: boolean;
  updated_at: Date | string;
}

const PAIR_SELECT = `select p.id, p.from_currency_id, f.code as from_code, p.to_currency_id, t.code as to_code,
       p.mid_rate::text as mid_rate, p.spread_bps, p.fee_bps, p.fee_currency, p.min_amount::text as min_amount,
       p.max_amount::text as max_amount, p.enabled, p.updated_at
  from swap_pairs p join currencies f on f.id = p.from_currency_id join currencies t on t.id = p.to_currency_id`;

const toPair = (r: PairRow): AdminSwapPair => ({
  id: r.id,
  fromCurrencyId: r.from_currency_id,
  fromCode: r.from_code,
  toCurrencyId: r.to_currency_id,
  toCode: r.to_code,
  midRate: trimDecimal(r.mid_rate),
  spreadBps: r.spread_bps,
  feeBps: r.fee_bps,
  feeCurrency: r.fee_currency,
  minAmount: r.min_amount === null ? null : trimDecimal(r.min_amount),
  maxAmount: r.max_amount === null ? null : trimDecimal(r.max_amount),
  enabled: r.enabled,
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** Every pair, enabled or not (the public /api/swap/rates shows only enabled ones). */
export async function listPairs(database: Database): Promise<AdminSwapPair[]> {
  const rows = await database.sql.query<PairRow>(`${PAIR_SELECT} order by f.sort, t.sort, p.id`);
  return rows.map(toPair);
}

/** SQLSTATEs of the console's SQL functions (drizzle/0020) beside the ledger's. */
function rethrowSettingError(e: unknown): never {
  const state = sqlState(e);
  if (state === 'CB404') throw notFound();
  if (state === '22023') throw new BizError(ErrorCode.INVALID_PARAMS, 'reason');
  rethrowLedgerError(e);
}

/**
 * Sets a pair through coffer_swap_pair_set (validation, the update and its audit-trail row in
 * one statement). The next quote reads swap_pairs afresh (rates/operator-table.ts keeps no
 * cache), so it prices with the new settings at once.
 */
export async function updatePair(
  database: Database,
  by: Actor,
  pairId: number,
  body: SwapPairUpdateBody,
): Promise<AdminSwapPair & { changed: boolean }> {
  let changed = false;
  try {
    const [row] = await database.sql.query<{ changed: boolean }>(
      'select coffer_swap_pair_set($1, $2::numeric, $3, $4, $5::numeric, $6::numeric, $7, $8, $9, $10) as changed',
      [
        pairId,
        body.midRate,
        body.spreadBps,
        body.feeBps,
        body.minAmount,
        body.maxAmount,
        body.enabled,
        by.actorUserId,
        by.actor,
        body.reason,
      ],
    );
    changed = row?.changed === true;
  } catch (e) {
    rethrowSettingError(e);
  }
  const [row] = await database.sql.query<PairRow>(`${PAIR_SELECT} where p.id = $1`, [pairId]);
  if (!row) throw notFound();
  return { ...toPair(row), changed };
}

interface LimitRow {
  id: number;
  code: string;
  limit: string | null;
  balance: string | null;
  min_balance: string | null;
}

/** Each currency's configured house limit and the house account's balance and floor. */
export async function listHouseLimits(database: Database): Promise<HouseLimit[]> {
  const rows = await database.sql.query<LimitRow>(
    `select c.id, c.code, h."limit"::text as "limit", a.balance::text as balance, a.min_balance::text as min_balance
       from currencies c
       left join house_limits h on h.currency_id = c.id
       left join accounts a on a.user_id is null and a.currency_id = c.id and a.kind = 'house'
      order by c.sort, c.id`,
  );
  return rows.map((r) => ({
    currencyId: r.id,
    code: r.code,
    limit: r.limit === null ? null : trimDecimal(r.limit),
    balance: trimDecimal(r.balance ?? '0'),
    minBalance: trimDecimal(r.min_balance ?? '0'),
  }));
}

/** Sets one house limit through coffer_house_limit_set (audited; no-op when already so). */
export async function setHouseLimitAsOperator(
  database: Database,
  by: Actor,
  body: { currencyId: number; limit: string; reason: string },
): Promise<HouseLimitSetData> {
  let row: { h_changed: boolean; h_limit: string; h_balance: string; h_min_balance: string; code: string } | undefined;
  try {
    [row] = await database.sql.query<NonNullable<typeof row>>(
      `select h.h_changed, h.h_limit::text, h.h_balance::text, h.h_min_balance::text,
              (select code from currencies where id = $1) as code
         from coffer_house_limit_set($1, $2::numeric, $3, $4, $5) h`,
      [body.currencyId, body.limit, by.actorUserId, by.actor, body.reason],
    );
  } catch (e) {
    if (sqlState(e) === 'CB003') throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'currencyId');
    rethrowSettingError(e);
  }
  return {
    currencyId: body.currencyId,
    code: row!.code,
    limit: trimDecimal(row!.h_limit),
    balance: trimDecimal(row!.h_balance),
    minBalance: trimDecimal(row!.h_min_balance),
    changed: row!.h_changed,
  };
}
