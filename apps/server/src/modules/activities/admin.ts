import {
  type ActivityAdmin,
  type ActivityAdminList,
  type ActivityCreateBody,
  type ActivityFundResult,
  type ActivityPayouts,
  type ActivityUpdateBody,
  ErrorCode,
  type PrizeTier,
  trimDecimal,
} from '@coffer/contract';
import DecimalJs from 'decimal.js';
import { BizError, invalid } from '../../core/errors.ts';
import { type OperatorAction, recordOperatorAction } from '../../core/operator-audit.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction, type Query } from '../../db/transaction.ts';
import { parseAmount } from '../../ledger/amounts.ts';
import { requestHash } from '../../ledger/idempotency.ts';
import { rethrowLedgerError } from '../../ledger/sql-errors.ts';
import { ACTIVITY_COLUMNS, ACTIVITY_FROM, activitySqlError, type ActivityRow, iso, loadActivity, toAdmin } from './store.ts';

const Decimal = DecimalJs.clone({ precision: 120 });
/** Most activities on the operators' list (newest first). */
const ADMIN_LIST_MAX = 200;

type Operator = Pick<OperatorAction, 'actorUserId' | 'actor'>;

/** A currency as an activity refers to it. */
interface Currency {
  id: number;
  code: string;
  decimals: number;
}

/**
 * A currency by id or code (enabled or not), or 3003; read through the transaction's own
 * connection (PGlite has only one).
 */
async function currencyOf(q: Query, ref: number | string): Promise<Currency> {
  const [row] = await q<Currency>(
    typeof ref === 'number'
      ? 'select id, code, decimals from currencies where id = $1'
      : 'select id, code, decimals from currencies where upper(code) = upper($1)',
    [ref],
  );
  if (!row) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE);
  return { id: Number(row.id), code: row.code, decimals: Number(row.decimals) };
}

/** What an activity is made of once its references are resolved and amounts checked. */
interface Resolved {
  metric: ActivityCreateBody['metric'];
  metricCurrencyId: number | null;
  minTransfer: string | null;
  startsAt: string;
  endsAt: string;
  minScore: string;
  prizeCurrency: Currency;
  prizes: PrizeTier[];
}

/** A prize amount or minimum within its currency's decimals (3002), as a plain decimal string. */
const amountIn = (currency: Currency, amount: string) =>
  parseAmount(amount, { decimals: currency.decimals, transferMin: null, transferMax: null }, { limits: false });

interface ResolveInput extends Omit<Resolved, 'metricCurrencyId' | 'prizeCurrency' | 'minTransfer'> {
  metricCurrency?: number | string | null;
  minTransfer?: string | null;
  prizeCurrency: number | string;
}

const base = (i: ResolveInput) => ({ metric: i.metric, startsAt: i.startsAt, endsAt: i.endsAt, minScore: i.minScore });

async function resolve(q: Query, input: ResolveInput): Promise<Resolved> {
  if (new Date(input.endsAt).getTime() <= new Date(input.startsAt).getTime()) throw invalid('endsAt');
  const prizeCurrency = await currencyOf(q, input.prizeCurrency);
  const prizes = input.prizes.map((p) => ({ ...p, amount: amountIn(prizeCurrency, p.amount) }));
  if (input.metric === 'transfers_sent') {
    if (input.metricCurrency === undefined || input.metricCurrency === null) throw invalid('metricCurrency');
    if (!input.minTransfer) throw invalid('minTransfer');
    const metricCurrency = await currencyOf(q, input.metricCurrency);
    const minTransfer = amountIn(metricCurrency, input.minTransfer);
    return { ...base(input), prizeCurrency, prizes, metricCurrencyId: metricCurrency.id, minTransfer };
  }
  if (input.metricCurrency !== undefined && input.metricCurrency !== null) throw invalid('metricCurrency');
  if (input.minTransfer) throw invalid('minTransfer');
  return { ...base(input), prizeCurrency, prizes, metricCurrencyId: null, minTransfer: null };
}

async function writePrizes(q: Query, id: number, prizes: PrizeTier[]) {
  await q('delete from activity_prizes where activity_id = $1', [id]);
  for (const p of prizes) {
    await q('insert into activity_prizes (activity_id, rank_from, rank_to, amount) values ($1, $2, $3, $4::numeric)', [
      id,
      p.rankFrom,
      p.rankTo,
      p.amount,
    ]);
  }
}

export async function createActivity(database: Database, who: Operator, body: ActivityCreateBody): Promise<ActivityAdmin> {
  return inTransaction(database, async (q) => {
    const r = await resolve(q, body);
    const [row] = await q<{ id: number }>(
      `insert into activities (title_zh, title_en, rules_zh, rules_en, metric, metric_currency_id, min_transfer,
         starts_at, ends_at, min_score, prize_currency_id)
       values ($1, $2, $3, $4, $5, $6, $7::numeric, $8::timestamptz, $9::timestamptz, $10::numeric, $11) returning id`,
      [
        body.titleZh,
        body.titleEn,
        body.rulesZh,
        body.rulesEn,
        r.metric,
        r.metricCurrencyId,
        r.minTransfer,
        r.startsAt,
        r.endsAt,
        r.minScore,
        r.prizeCurrency.id,
      ],
    );
    const id = Number(row!.id);
    await writePrizes(q, id, r.prizes);
    const after = toAdmin(await loadActivity(q, id));
    await recordOperatorAction(q, {
      ...who,
      action: 'activity.create',
      targetType: 'activity',
      targetId: id,
      reason: body.reason,
      before: null,
      after,
    });
    return after;
  });
}

const sameDecimal = (a: string | null, b: string | null) => (a === null || b === null ? a === b : new Decimal(a).eq(b));
const samePrizes = (a: PrizeTier[], b: PrizeTier[]) =>
  a.length === b.length &&
  a.every((p, i) => p.rankFrom === b[i]?.rankFrom && p.rankTo === b[i]?.rankTo && new Decimal(p.amount).eq(b[i]?.amount ?? 'NaN'));

/** Fields that change what is counted or paid: fixed once the activity has started. */
function rulesChanged(before: ActivityAdmin, row: ActivityRow, next: Resolved): boolean {
  return (
    next.metric !== before.metric ||
    next.metricCurrencyId !== (row.metric_currency_id === null ? null : Number(row.metric_currency_id)) ||
    !sameDecimal(next.minTransfer, before.minTransfer) ||
    new Date(next.startsAt).getTime() !== new Date(before.startsAt).getTime() ||
    new Date(next.endsAt).getTime() !== new Date(before.endsAt).getTime() ||
    !sameDecimal(next.minScore, before.minScore) ||
    next.prizeCurrency.id !== before.prizeCurrencyId ||
    !samePrizes(next.prizes, before.prizes)
  );
}

/**
 * Changes the given fields. Titles and rules may change at any time until settlement; the
 * rest only before startsAt (6020); the prize currency only while nothing is funded (6022).
 */
export async function updateActivity(database: Database, who: Operator, body: ActivityUpdateBody): Promise<ActivityAdmin> {
  return inTransaction(database, async (q) => {
    const row = await loadActivity(q, body.id, true);
    if (row.settled_at !== null) throw new BizError(ErrorCode.ACTIVITY_SETTLED);
    const before = toAdmin(row);
    const metric = body.metric ?? before.metric;
    // Switching to swap volume drops the transfer parameters unless the body sets them (then 1001).
    const keepTransferParams = metric === 'transfers_sent';
    const oldMetricCurrency = row.metric_currency_id === null ? null : Number(row.metric_currency_id);
    const next = await resolve(q, {
      metric,
      metricCurrency: body.metricCurrency ?? (keepTransferParams ? oldMetricCurrency : null),
      minTransfer: body.minTransfer ?? (keepTransferParams ? before.minTransfer : null),
      startsAt: body.startsAt ?? before.startsAt,
      endsAt: body.endsAt ?? before.endsAt,
      minScore: body.minScore ?? before.minScore,
      prizeCurrency: body.prizeCurrency ?? before.prizeCurrencyId,
      prizes: body.prizes ?? before.prizes,
    });
    if (rulesChanged(before, row, next)) {
      const [started] = await q<{ started: boolean }>('select now() >= $1::timestamptz as started', [before.startsAt]);
      if (started?.started) throw new BizError(ErrorCode.ACTIVITY_STARTED);
      if (next.prizeCurrency.id !== before.prizeCurrencyId && new Decimal(before.funded).gt(0)) {
        throw new BizError(ErrorCode.ACTIVITY_FUNDED);
      }
    }
    await q(
      `update activities set title_zh = $2, title_en = $3, rules_zh = $4, rules_en = $5, metric = $6, metric_currency_id = $7,
         min_transfer = $8::numeric, starts_at = $9::timestamptz, ends_at = $10::timestamptz, min_score = $11::numeric,
         prize_currency_id = $12, updated_at = now()
       where id = $1`,
      [
        body.id,
        body.titleZh ?? before.titleZh,
        body.titleEn ?? before.titleEn,
        body.rulesZh ?? before.rulesZh,
        body.rulesEn ?? before.rulesEn,
        next.metric,
        next.metricCurrencyId,
        next.minTransfer,
        next.startsAt,
        next.endsAt,
        next.minScore,
        next.prizeCurrency.id,
      ],
    );
    if (body.prizes) await writePrizes(q, body.id, next.prizes);
    const after = toAdmin(await loadActivity(q, body.id));
    await recordOperatorAction(q, {
      ...who,
      action: 'activity.update',
      targetType: 'activity',
      targetId: body.id,
      reason: body.reason,
      before,
      after,
    });
    return after;
  });
}

/**
 * Moves `amount` from the prize currency's adjustments account into its prize account for this
 * activity (coffer_activity_fund: entry, funding row and audit row in one transaction).
 */
export async function fundActivity(
  database: Database,
  who: Operator,
  input: { id: number; amount: string; reason: string },
  key: string | null,
): Promise<ActivityFundResult> {
  const hash = key
    ? requestHash('activity.fund', { id: input.id, amount: new Decimal(input.amount).toFixed(), reason: input.reason })
    : null;
  let row: { f_entry: number; f_amount: string; f_replayed: boolean } | undefined;
  try {
    [row] = await database.sql.query<{ f_entry: number; f_amount: string; f_replayed: boolean }>(
      'select * from coffer_activity_fund($1, $2::numeric, $3, $4, $5, $6, $7)',
      [input.id, input.amount, who.actorUserId, who.actor, input.reason, key, hash],
    );
  } catch (e) {
    const biz = activitySqlError(e);
    if (biz) throw biz;
    rethrowLedgerError(e);
  }
  if (!row) throw new Error('coffer_activity_fund returned no row');
  const after = await loadActivity(database.sql.query, input.id);
  return {
    activityId: input.id,
    entryId: Number(row.f_entry),
    amount: trimDecimal(row.f_amount),
    funded: trimDecimal(after.funded),
    prizeTotal: trimDecimal(after.prize_total),
    status: after.status,
    replayed: row.f_replayed,
  };
}

export async function adminActivityList(database: Database): Promise<ActivityAdminList> {
  const rows = await database.sql.query<ActivityRow>(`select ${ACTIVITY_COLUMNS} from ${ACTIVITY_FROM} order by a.id desc limit $1`, [
    ADMIN_LIST_MAX,
  ]);
  return { items: rows.map(toAdmin) };
}

export async function activityPayouts(database: Database, id: number): Promise<ActivityPayouts> {
  const row = await loadActivity(database.sql.query, id);
  const rows = await database.sql.query<{
    rank: number;
    user_id: number;
    email: string;
    nickname: string | null;
    score: string;
    amount: string;
    entry_id: number | null;
    notice_id: number | null;
    paid_at: Date | string | null;
  }>(
    `select w.rank, w.user_id, u.email, u.nickname, w.score::text as score, w.amount::text as amount, w.entry_id, w.notice_id, w.paid_at
     from activity_winners w join users u on u.id = w.user_id where w.activity_id = $1 order by w.rank`,
    [id],
  );
  return {
    activityId: id,
    status: row.status,
    items: rows.map((w) => ({
      rank: Number(w.rank),
      uid: Number(w.user_id),
      email: w.email,
      nickname: w.nickname ?? '',
      score: trimDecimal(w.score),
      amount: trimDecimal(w.amount),
      entryId: w.entry_id === null ? null : Number(w.entry_id),
      noticeId: w.notice_id === null ? null : Number(w.notice_id),
      paidAt: w.paid_at === null ? null : iso(w.paid_at),
    })),
  };
}
