import { z } from 'zod';
import { amountString, decimalString, id, isoTime, queryId, safeText } from './common.ts';
import { ACTIVITY_MAX_PRIZE_RANK, ACTIVITY_RULES_MAX, ACTIVITY_TITLE_MAX } from './rules.ts';

export { ACTIVITY_MAX_PRIZE_RANK, ACTIVITY_RULES_MAX, ACTIVITY_TITLE_MAX };

/**
 * Activities (ranking campaigns with prizes, decision 015). A window [startsAt, endsAt), a
 * metric computed in SQL from the ledger, a minimum score to qualify and a prize table by
 * rank, paid once from a funded prize account after the window closed.
 */

/**
 * swap_volume_usdt: USDT side of each swap that has one; transfers_sent: distinct recipients of
 * transfers of at least minTransfer in metricCurrency (each person counts once, so transfers to
 * one friend cannot farm the board), leaving out transfers between accounts an operator linked
 * (the same person, one household: account links, docs/decisions/047).
 */
export const ACTIVITY_METRICS = ['swap_volume_usdt', 'transfers_sent'] as const;
export const activityMetric = z.enum(ACTIVITY_METRICS);
export type ActivityMetric = z.infer<typeof activityMetric>;

/**
 * upcoming: before startsAt; live: inside the window; ended: closed, waiting for its payout
 * (fully funded); underfunded: closed but the prize account holds less than the table (nothing
 * is paid until it is funded); paying: some winners paid; paid: every winner paid.
 */
export const ACTIVITY_STATUSES = ['upcoming', 'live', 'ended', 'underfunded', 'paying', 'paid'] as const;
export const activityStatus = z.enum(ACTIVITY_STATUSES);
export type ActivityStatus = z.infer<typeof activityStatus>;

/** Most tiers in one prize table. */
export const ACTIVITY_MAX_PRIZE_TIERS = 20;
/** Largest top-N of the public ranking. */
export const ACTIVITY_RANK_LIMIT_MAX = 100;
export const ACTIVITY_RANK_LIMIT_DEFAULT = 20;

/** Ranks rankFrom..rankTo (inclusive) each receive `amount` of the prize currency. */
export const prizeTier = z
  .object({
    rankFrom: z.number().int().min(1).max(ACTIVITY_MAX_PRIZE_RANK),
    rankTo: z.number().int().min(1).max(ACTIVITY_MAX_PRIZE_RANK),
    amount: amountString,
  })
  .refine((t) => t.rankTo >= t.rankFrom, { message: 'rankTo must be at least rankFrom', path: ['rankTo'] });
export type PrizeTier = z.infer<typeof prizeTier>;

/** Tiers in rank order without overlaps (gaps allowed: those ranks win nothing). */
export const prizeTable = z
  .array(prizeTier)
  .min(1)
  .max(ACTIVITY_MAX_PRIZE_TIERS)
  .refine((tiers) => tiers.every((t, i) => i === 0 || t.rankFrom > (tiers[i - 1]?.rankTo ?? 0)), {
    message: 'tiers must be in rank order and must not overlap',
  });

/** A prize tier as answered: amounts are decimal strings without trailing zeros. */
export const prizeTierOut = z.object({ rankFrom: z.number().int(), rankTo: z.number().int(), amount: decimalString });

const when = z.iso.datetime({ offset: true });
/** Currency id or code (e.g. "USDT"). */
const currencyRef = z.union([id, safeText({ min: 1, max: 16 })]);
const scoreString = z
  .string()
  .trim()
  .regex(/^(0|[1-9]\d{0,19})(\.\d{1,18})?$/, 'must be a decimal string like "100" or "0"');

// ---- public -------------------------------------------------------------------------------

/** GET /api/activity/getAllRank?id=&limit= (public). */
export const activityRankQuery = z.object({
  id: queryId,
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, 'must be a positive integer')
    .transform(Number)
    .pipe(z.number().int().min(1).max(ACTIVITY_RANK_LIMIT_MAX))
    .optional(),
});
export type ActivityRankQuery = z.infer<typeof activityRankQuery>;

export const activityRankRow = z.object({
  rank: z.number().int(),
  /** Masked: nickname "Al***ce", or e-mail "a***@e***.com" when there is no nickname. Never the full e-mail. */
  name: z.string(),
  avatar: z.string().nullable(),
  score: decimalString,
  /** The prize of this rank in the prize currency, or null. */
  prize: decimalString.nullable(),
});
export type ActivityRankRow = z.infer<typeof activityRankRow>;

export const activityRanking = z.object({
  activityId: z.number().int(),
  status: activityStatus,
  metric: activityMetric,
  prizeCurrency: z.string(),
  /** How many users qualify (score >= minScore and > 0). */
  qualified: z.number().int(),
  items: z.array(activityRankRow),
});
export type ActivityRanking = z.infer<typeof activityRanking>;

/** GET /api/activity/getUserRank?id= (signed in). */
export const activityUserRankQuery = z.object({ id: queryId });
export const activityUserRank = z.object({
  activityId: z.number().int(),
  /** Null when the user does not qualify (yet). */
  rank: z.number().int().nullable(),
  score: decimalString,
  minScore: decimalString,
  /**
   * Score still missing to reach the next prize rank: the rank above (when already in a prize
   * rank) or the last prize rank (or minScore while that rank is free). Equal scores rank by
   * who reached the score first. Null at rank 1 or when the activity has no prize rank to reach.
   */
  gapToNextPrize: decimalString.nullable(),
  nextPrizeRank: z.number().int().nullable(),
  /** This user's prize at the current rank, or null. */
  prize: decimalString.nullable(),
  prizeCurrency: z.string(),
});
export type ActivityUserRank = z.infer<typeof activityUserRank>;

/** POST /api/activity/details {id} (public). */
export const activityDetailsBody = z.object({ id });
export const activityDetails = z.object({
  id: z.number().int(),
  /** In the request's language. */
  title: z.string(),
  /** Rules rendered from Markdown to HTML (raw HTML in the Markdown is escaped). */
  rulesHtml: z.string(),
  metric: activityMetric,
  /** transfers_sent only: the currency counted and the smallest transfer that counts. */
  metricCurrency: z.string().nullable(),
  minTransfer: decimalString.nullable(),
  startsAt: isoTime,
  endsAt: isoTime,
  status: activityStatus,
  minScore: decimalString,
  prizeCurrency: z.string(),
  prizeCurrencyId: z.number().int(),
  prizes: z.array(prizeTierOut),
  /** Sum of the table (what funding must reach). */
  prizeTotal: decimalString,
  /** Funded for this activity so far. */
  funded: decimalString,
});
export type ActivityDetails = z.infer<typeof activityDetails>;

/** GET /api/activity/list (public): live, upcoming and recently closed activities. */
export const activitySummary = z.object({
  id: z.number().int(),
  title: z.string(),
  metric: activityMetric,
  startsAt: isoTime,
  endsAt: isoTime,
  status: activityStatus,
  prizeCurrency: z.string(),
  prizeTotal: decimalString,
});
export type ActivitySummary = z.infer<typeof activitySummary>;
export const activityList = z.object({ items: z.array(activitySummary) });
export type ActivityList = z.infer<typeof activityList>;

// ---- admin (operators; every write audited) ----------------------------------------------

const activityFields = {
  titleZh: safeText({ min: 1, max: ACTIVITY_TITLE_MAX }),
  titleEn: safeText({ min: 1, max: ACTIVITY_TITLE_MAX }),
  /** Markdown. */
  rulesZh: safeText({ max: ACTIVITY_RULES_MAX, multiline: true }),
  rulesEn: safeText({ max: ACTIVITY_RULES_MAX, multiline: true }),
  metric: activityMetric,
  /** transfers_sent: required (currency counted); swap_volume_usdt: must be absent. */
  metricCurrency: currencyRef.optional(),
  /** transfers_sent: required, > 0 (smaller transfers do not count, against dust spam). */
  minTransfer: amountString.optional(),
  startsAt: when,
  endsAt: when,
  /** Smallest score that qualifies for a rank ("0": any score above zero). */
  minScore: scoreString,
  prizeCurrency: currencyRef,
  prizes: prizeTable,
};

/** POST /api/admin/activities/create */
export const activityCreateBody = z.object({ ...activityFields, reason: safeText({ max: 500 }).optional() });
export type ActivityCreateBody = z.infer<typeof activityCreateBody>;

/**
 * POST /api/admin/activities/update: only the fields given change. Titles and rules may change
 * at any time; every other field only before startsAt (6020), the prize currency only while
 * nothing is funded (6022).
 */
export const activityUpdateBody = z
  .object(activityFields)
  .partial()
  .extend({ id, reason: safeText({ max: 500 }).optional() });
export type ActivityUpdateBody = z.infer<typeof activityUpdateBody>;

/** POST /api/admin/activities/fund: moves `amount` from the adjustments account into the prize account. Idempotency-Key accepted. */
export const activityFundBody = z.object({ id, amount: amountString, reason: safeText({ min: 1, max: 500 }) });
export type ActivityFundBody = z.infer<typeof activityFundBody>;
export const activityFundResult = z.object({
  activityId: z.number().int(),
  entryId: z.number().int(),
  amount: decimalString,
  funded: decimalString,
  prizeTotal: decimalString,
  status: activityStatus,
  replayed: z.boolean(),
});
export type ActivityFundResult = z.infer<typeof activityFundResult>;

/** One activity as operators see it (create, update, list). */
export const activityAdmin = z.object({
  id: z.number().int(),
  titleZh: z.string(),
  titleEn: z.string(),
  rulesZh: z.string(),
  rulesEn: z.string(),
  metric: activityMetric,
  metricCurrency: z.string().nullable(),
  minTransfer: decimalString.nullable(),
  startsAt: isoTime,
  endsAt: isoTime,
  minScore: decimalString,
  prizeCurrency: z.string(),
  prizeCurrencyId: z.number().int(),
  prizes: z.array(prizeTierOut),
  prizeTotal: decimalString,
  funded: decimalString,
  /** Paid to winners so far. */
  paid: decimalString,
  status: activityStatus,
  /** Winners fixed at settlement, and how many of them are paid. */
  winners: z.number().int(),
  winnersPaid: z.number().int(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type ActivityAdmin = z.infer<typeof activityAdmin>;
export const activityAdminList = z.object({ items: z.array(activityAdmin) });
export type ActivityAdminList = z.infer<typeof activityAdminList>;

/** GET /api/admin/activities/payouts?id= */
export const activityPayoutsQuery = z.object({ id: queryId });
export const activityPayout = z.object({
  rank: z.number().int(),
  uid: z.number().int(),
  email: z.string(),
  nickname: z.string(),
  score: decimalString,
  amount: decimalString,
  /** The prize's journal entry; null while not paid yet. */
  entryId: z.number().int().nullable(),
  noticeId: z.number().int().nullable(),
  paidAt: isoTime.nullable(),
});
export type ActivityPayout = z.infer<typeof activityPayout>;
export const activityPayouts = z.object({
  activityId: z.number().int(),
  status: activityStatus,
  items: z.array(activityPayout),
});
export type ActivityPayouts = z.infer<typeof activityPayouts>;
