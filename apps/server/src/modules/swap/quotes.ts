import {
  ErrorCode,
  SWAP_QUOTE_TTL_SECONDS,
  type SwapApplyBody,
  type SwapPair,
  type SwapQuoteBody,
  type SwapQuoteData,
} from '@coffer/contract';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { Decimal, effectiveRate, movedBps, plain, priceSwap, rateAfterSpread, type SwapPrice } from './pricing.ts';
import type { PricedPair, RateSource } from './rates/index.ts';

/**
 * How far (in basis points of the quoted rate) the live rate may have moved, either way,
 * for a quote to still be honoured; beyond it apply answers 3006 and the client re-quotes.
 */
export const QUOTE_RATE_TOLERANCE_BPS = 20;

export const quoteExpired = (detail?: string) => new BizError(ErrorCode.QUOTE_EXPIRED, detail);

export interface QuoteRow {
  id: number;
  user_id: number;
  from_currency_id: number;
  to_currency_id: number;
  from_amount: string;
  to_amount: string;
  rate: string;
  mid_rate: string;
  spread_bps: number;
  fee_bps: number;
  fee: string;
  fee_currency_id: number;
  expires_at: Date | string;
  used_at: Date | string | null;
}

/** Public price list: what a user gets per pair after spread (and after fee). */
export async function listRates(rates: RateSource): Promise<SwapPair[]> {
  const pairs = await rates.listPairs();
  return pairs.map((p) => ({
    fromCurrencyId: p.fromCurrencyId,
    fromCurrency: p.fromCode,
    toCurrencyId: p.toCurrencyId,
    toCurrency: p.toCode,
    rate: rateAfterSpread(p.midRate, p.spreadBps),
    effectiveRate: effectiveRate(p),
    spreadBps: p.spreadBps,
    feeBps: p.feeBps,
    feeCurrencyId: p.feeCurrency === 'to' ? p.toCurrencyId : p.fromCurrencyId,
    minAmount: p.minAmount === null ? null : plain(p.minAmount),
    maxAmount: p.maxAmount === null ? null : plain(p.maxAmount),
    updatedAt: p.updatedAt.toISOString(),
  }));
}

/** The pair for a direction, or 1001 (same currency) / 3003 (unknown, disabled, no fresh price). */
export async function pairFor(rates: RateSource, fromCurrencyId: number, toCurrencyId: number): Promise<PricedPair> {
  if (fromCurrencyId === toCurrencyId) {
    throw new BizError(ErrorCode.INVALID_PARAMS, 'toCurrencyId: must differ from fromCurrencyId');
  }
  const pair = await rates.getPair(fromCurrencyId, toCurrencyId);
  if (!pair) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'no swap between these currencies right now');
  return pair;
}

/** Prices the request at the live rate and stores it as a quote that holds for SWAP_QUOTE_TTL_SECONDS. */
export async function quoteSwap(database: Database, rates: RateSource, userId: number, body: SwapQuoteBody): Promise<SwapQuoteData> {
  const pair = await pairFor(rates, body.fromCurrencyId, body.toCurrencyId);
  const price = priceSwap(pair, body.amount);
  const [row] = await database.sql.query<{ id: number; expires_at: Date | string }>(
    `insert into swap_quotes (user_id, from_currency_id, to_currency_id, from_amount, to_amount, rate, mid_rate,
                              spread_bps, fee_bps, fee, fee_currency_id, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() + make_interval(secs => $12))
     returning id, expires_at`,
    [
      userId,
      pair.fromCurrencyId,
      pair.toCurrencyId,
      price.fromAmount,
      price.toAmount,
      price.rate,
      price.midRate,
      price.spreadBps,
      price.feeBps,
      price.fee,
      price.feeCurrencyId,
      SWAP_QUOTE_TTL_SECONDS,
    ],
  );
  return {
    quoteId: row!.id,
    fromCurrencyId: pair.fromCurrencyId,
    toCurrencyId: pair.toCurrencyId,
    rate: price.rate,
    fromAmount: price.fromAmount,
    toAmount: price.toAmount,
    fee: price.fee,
    feeCurrencyId: price.feeCurrencyId,
    expiresAt: new Date(row!.expires_at).toISOString(),
  };
}

/** The columns of swap_quotes that quoteHolds() reads, as text where they are money. */
const QUOTE_COLUMNS = `q.id, q.user_id, q.from_currency_id, q.to_currency_id, q.from_amount::text as from_amount,
  q.to_amount::text as to_amount, q.rate::text as rate, q.mid_rate::text as mid_rate, q.spread_bps, q.fee_bps,
  q.fee::text as fee, q.fee_currency_id, q.expires_at, q.used_at`;

/** A quote holds if it is this user's, for this request, unused, unexpired, and the rate held still (else 3006). */
export async function quotedPrice(database: Database, userId: number, body: SwapApplyBody, pair: PricedPair): Promise<SwapPrice> {
  const [q] = await database.sql.query<QuoteRow>(`select ${QUOTE_COLUMNS} from swap_quotes q where q.id = $1`, [body.quoteId]);
  return quoteHolds(q, userId, body, pair);
}

/**
 * The session of a token hash (of an account not disabled, as requireSession() checks) and the
 * quote `quoteId`, in one statement: a quoted swap needs its user before the batch to price
 * from its quote. null: no such session (requireSession() then names the refusal).
 */
export async function sessionAndQuote(
  database: Database,
  tokenHash: string,
  quoteId: number,
): Promise<{ userId: number; quote: QuoteRow | undefined } | null> {
  const [row] = await database.sql.query<QuoteRow & { session_user: number; quote_id: number | null }>(
    `select s.user_id as session_user, q.id as quote_id, ${QUOTE_COLUMNS}
       from sessions s
       join users u on u.id = s.user_id and u.disabled_at is null
       left join swap_quotes q on q.id = $2
      where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now()`,
    [tokenHash, quoteId],
    { name: 'swap_session_quote_v1' },
  );
  if (!row) return null;
  return { userId: Number(row.session_user), quote: row.quote_id === null ? undefined : row };
}

/** The quoted price if `q` holds for this user and request (see quotedPrice), else 3006. */
export function quoteHolds(q: QuoteRow | undefined, userId: number, body: SwapApplyBody, pair: PricedPair): SwapPrice {
  if (!q || Number(q.user_id) !== userId) throw quoteExpired('quoteId: unknown quote');
  if (q.from_currency_id !== body.fromCurrencyId || q.to_currency_id !== body.toCurrencyId || !new Decimal(q.from_amount).eq(body.amount)) {
    throw quoteExpired('quoteId: the quote was for another request');
  }
  if (q.used_at !== null) throw quoteExpired('quoteId: already used');
  if (new Date(q.expires_at).getTime() <= Date.now()) throw quoteExpired('quoteId: expired');
  const current = rateAfterSpread(pair.midRate, pair.spreadBps);
  if (movedBps(q.rate, current).gt(QUOTE_RATE_TOLERANCE_BPS)) throw quoteExpired('rate moved');
  return {
    fromAmount: plain(q.from_amount),
    toAmount: plain(q.to_amount),
    fee: plain(q.fee),
    feeCurrencyId: q.fee_currency_id,
    rate: plain(q.rate),
    midRate: plain(q.mid_rate),
    spreadBps: q.spread_bps,
    feeBps: q.fee_bps,
  };
}
