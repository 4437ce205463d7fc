import {
  ACTIVITY_RANK_LIMIT_DEFAULT,
  type ActivityDetails,
  type ActivityList,
  type ActivityRanking,
  type ActivityUserRank,
  type Locale,
  type PrizeTier,
  trimDecimal,
} from '@coffer/contract';
import DecimalJs from 'decimal.js';
import type { Database } from '../../db/client.ts';
// The content module's Markdown renderer (html off, safe links and images): one policy for all operator text.
import { renderMarkdown } from '../content/index.ts';
import { rankName } from './mask.ts';
import { rankingOf } from './ranking-cache.ts';
import { ACTIVITY_COLUMNS, ACTIVITY_FROM, type ActivityRow, iso, loadActivity, prizeOfRank, prizesOf } from './store.ts';

/** Exact decimals for score gaps (scores are NUMERIC(38,18) sums). */
const Decimal = DecimalJs.clone({ precision: 120 });
/** Closed activities stay on the public list this long after their end. */
const RECENT_DAYS = 30;
/** Most activities on the public list. */
const LIST_MAX = 50;

const title = (row: ActivityRow, locale: Locale) => (locale === 'zh-CN' ? row.title_zh : row.title_en);

export async function activityDetails(database: Database, id: number, locale: Locale): Promise<ActivityDetails> {
  const row = await loadActivity(database.sql.query, id);
  return {
    id: Number(row.id),
    title: title(row, locale),
    rulesHtml: renderMarkdown(locale === 'zh-CN' ? row.rules_zh : row.rules_en),
    metric: row.metric,
    metricCurrency: row.metric_currency,
    minTransfer: row.min_transfer === null ? null : trimDecimal(row.min_transfer),
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    status: row.status,
    minScore: trimDecimal(row.min_score),
    prizeCurrency: row.prize_currency,
    prizeCurrencyId: Number(row.prize_currency_id),
    prizes: prizesOf(row),
    prizeTotal: trimDecimal(row.prize_total),
    funded: trimDecimal(row.funded),
  };
}

/** Live first, then upcoming (soonest first), then those closed in the last RECENT_DAYS (latest first). */
export async function activityList(database: Database, locale: Locale): Promise<ActivityList> {
  const rows = await database.sql.query<ActivityRow>(
    `select ${ACTIVITY_COLUMNS} from ${ACTIVITY_FROM}
     where a.ends_at > now() - make_interval(days => $1)
     order by case when now() >= a.starts_at and now() < a.ends_at then 0 when now() < a.starts_at then 1 else 2 end,
       case when now() < a.ends_at then a.ends_at end asc, a.ends_at desc, a.id desc
     limit $2`,
    [RECENT_DAYS, LIST_MAX],
  );
  return {
    items: rows.map((row) => ({
      id: Number(row.id),
      title: title(row, locale),
      metric: row.metric,
      startsAt: iso(row.starts_at),
      endsAt: iso(row.ends_at),
      status: row.status,
      prizeCurrency: row.prize_currency,
      prizeTotal: trimDecimal(row.prize_total),
    })),
  };
}

/** The top `limit` of the ranking (coffer_activity_ranking over committed records, RANKING_CACHE_MS old at most). */
export async function activityRanking(database: Database, id: number, limit = ACTIVITY_RANK_LIMIT_DEFAULT): Promise<ActivityRanking> {
  const row = await loadActivity(database.sql.query, id);
  const prizes = prizesOf(row);
  const ranked = await rankingOf(database, id);
  return {
    activityId: Number(row.id),
    status: row.status,
    metric: row.metric,
    prizeCurrency: row.prize_currency,
    qualified: ranked.length,
    items: ranked.slice(0, limit).map((r) => ({
      rank: r.rank,
      name: rankName(r.nickname, r.email),
      avatar: r.avatar,
      score: trimDecimal(r.score),
      prize: prizeOfRank(prizes, r.rank),
    })),
  };
}

/** The best prize rank above `rank` (any prize rank when unranked), or null. */
export function nextPrizeRank(prizes: PrizeTier[], rank: number | null): number | null {
  const below = rank ?? Number.POSITIVE_INFINITY;
  let best: number | null = null;
  for (const p of prizes) {
    if (p.rankFrom >= below) continue;
    const candidate = Math.min(p.rankTo, below - 1);
    if (best === null || candidate > best) best = candidate;
  }
  return best;
}

async function userScore(database: Database, id: number, userId: number): Promise<string> {
  const [row] = await database.sql.query<{ score: string }>('select coffer_activity_user_score($1, $2)::text as score', [id, userId]);
  return row?.score ?? '0';
}

/** The caller's place: rank (null below the minimum), score and what is missing to the next prize rank. */
export async function activityUserRank(database: Database, id: number, userId: number): Promise<ActivityUserRank> {
  const row = await loadActivity(database.sql.query, id);
  const prizes = prizesOf(row);
  const ranked = await rankingOf(database, id);
  const me = ranked.find((r) => r.userId === userId);
  const rank = me?.rank ?? null;
  // Ranked: the score the rank was computed from; below the minimum: read now (one user, indexed).
  const score = new Decimal(me?.score ?? (await userScore(database, id, userId)));
  const minScore = new Decimal(row.min_score);
  const target = nextPrizeRank(prizes, rank);
  let gap: string | null = null;
  if (target !== null) {
    const other = ranked[target - 1];
    // An empty prize rank is reached by qualifying; an occupied one by matching its score
    // (equal scores rank by who reached the score first).
    const needed = other ? Decimal.max(new Decimal(other.score), minScore) : minScore;
    gap = Decimal.max(needed.minus(score), 0).toFixed();
  }
  return {
    activityId: Number(row.id),
    rank,
    score: trimDecimal(score.toFixed()),
    minScore: trimDecimal(row.min_score),
    gapToNextPrize: gap === null ? null : trimDecimal(gap),
    nextPrizeRank: target,
    prize: prizeOfRank(prizes, rank),
    prizeCurrency: row.prize_currency,
  };
}
