import { type ActivityAdmin, type ActivityMetric, type ActivityStatus, ErrorCode, type PrizeTier, trimDecimal } from '@coffer/contract';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import type { Query } from '../../db/transaction.ts';
import { sqlState } from '../../ledger/sql-errors.ts';

/** One activity with what every view derives from it (status, totals), amounts as text. */
export interface ActivityRow {
  id: number;
  title_zh: string;
  title_en: string;
  rules_zh: string;
  rules_en: string;
  metric: ActivityMetric;
  metric_currency_id: number | null;
  metric_currency: string | null;
  min_transfer: string | null;
  starts_at: Date | string;
  ends_at: Date | string;
  min_score: string;
  prize_currency_id: number;
  prize_currency: string;
  prizes: { rankFrom: number; rankTo: number; amount: string }[] | string;
  prize_total: string;
  funded: string;
  paid: string;
  status: ActivityStatus;
  winners: number;
  winners_paid: number;
  settled_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** Columns of ActivityRow; `a` is activities. */
export const ACTIVITY_COLUMNS = `a.id, a.title_zh, a.title_en, a.rules_zh, a.rules_en, a.metric, a.metric_currency_id,
  mc.code as metric_currency, a.min_transfer::text as min_transfer, a.starts_at, a.ends_at, a.min_score::text as min_score,
  a.prize_currency_id, pc.code as prize_currency,
  coalesce((select json_agg(json_build_object('rankFrom', p.rank_from, 'rankTo', p.rank_to, 'amount', p.amount::text)
                            order by p.rank_from)
            from activity_prizes p where p.activity_id = a.id), '[]'::json) as prizes,
  activity_prize_total(a.id)::text as prize_total, activity_funded(a.id)::text as funded,
  (select coalesce(sum(w.amount), 0) from activity_winners w where w.activity_id = a.id and w.entry_id is not null)::text as paid,
  activity_status(a.id) as status,
  (select count(*) from activity_winners w where w.activity_id = a.id) as winners,
  (select count(*) from activity_winners w where w.activity_id = a.id and w.entry_id is not null) as winners_paid,
  a.settled_at, a.created_at, a.updated_at`;
export const ACTIVITY_FROM = `activities a join currencies pc on pc.id = a.prize_currency_id
  left join currencies mc on mc.id = a.metric_currency_id`;

type Reader = Pick<Database, 'sql'>['sql']['query'] | Query;

/** The activity, or 4004. */
export async function loadActivity(query: Reader, id: number, forUpdate = false): Promise<ActivityRow> {
  if (forUpdate) await query('select id from activities where id = $1 for update', [id]);
  const [row] = await query<ActivityRow>(`select ${ACTIVITY_COLUMNS} from ${ACTIVITY_FROM} where a.id = $1`, [id]);
  if (!row) throw new BizError(ErrorCode.NOT_FOUND);
  return row;
}

export const iso = (v: Date | string): string => new Date(v).toISOString();

export function prizesOf(row: ActivityRow): PrizeTier[] {
  const raw = typeof row.prizes === 'string' ? (JSON.parse(row.prizes) as ActivityRow['prizes']) : row.prizes;
  return (raw as { rankFrom: number; rankTo: number; amount: string }[]).map((p) => ({
    rankFrom: Number(p.rankFrom),
    rankTo: Number(p.rankTo),
    amount: trimDecimal(p.amount),
  }));
}

/** The prize of a rank, or null. */
export function prizeOfRank(prizes: PrizeTier[], rank: number | null): string | null {
  if (rank === null) return null;
  return prizes.find((p) => rank >= p.rankFrom && rank <= p.rankTo)?.amount ?? null;
}

export function toAdmin(row: ActivityRow): ActivityAdmin {
  return {
    id: Number(row.id),
    titleZh: row.title_zh,
    titleEn: row.title_en,
    rulesZh: row.rules_zh,
    rulesEn: row.rules_en,
    metric: row.metric,
    metricCurrency: row.metric_currency,
    minTransfer: row.min_transfer === null ? null : trimDecimal(row.min_transfer),
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    minScore: trimDecimal(row.min_score),
    prizeCurrency: row.prize_currency,
    prizeCurrencyId: Number(row.prize_currency_id),
    prizes: prizesOf(row),
    prizeTotal: trimDecimal(row.prize_total),
    funded: trimDecimal(row.funded),
    paid: trimDecimal(row.paid),
    status: row.status,
    winners: Number(row.winners),
    winnersPaid: Number(row.winners_paid),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** SQLSTATEs of the activity functions (drizzle/0019_activities.sql). */
export function activitySqlError(e: unknown): BizError | undefined {
  const state = sqlState(e);
  if (state === 'CBA04') return new BizError(ErrorCode.NOT_FOUND);
  if (state === 'CBA21') return new BizError(ErrorCode.ACTIVITY_SETTLED);
  return undefined;
}
