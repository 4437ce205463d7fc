import type { FeeCurrencyPolicy } from '@coffer/contract';
import type { Database } from '../../../db/client.ts';

/** A swap direction as the operator configured it (swap_pairs + both currencies). */
export interface PairConfig {
  id: number;
  fromCurrencyId: number;
  fromCode: string;
  fromDecimals: number;
  /** The places a fee in `from` rounds to: its display precision, at most its decimals (migration 0057). */
  fromPlaces: number;
  toCurrencyId: number;
  toCode: string;
  toDecimals: number;
  /** The places what is received (and a fee in `to`) rounds to. */
  toPlaces: number;
  /** The operator table's mid rate: `to` per `from`, a decimal string. */
  midRate: string;
  spreadBps: number;
  feeBps: number;
  feeCurrency: FeeCurrencyPolicy;
  minAmount: string | null;
  maxAmount: string | null;
  updatedAt: Date;
  /**
   * coffer_swap_pair_signature() of the row as read: the operator's values pricing uses. The
   * swap batch refuses to apply a price made from a pair whose signature has changed since
   * (modules/swap/apply.ts keeps pairs for a moment). Set by loadPairConfigs(); a pair
   * without it is never priced from a copy.
   */
  signature?: string;
}

/** A pair with the mid rate of the source that priced it and when that price was taken. */
export type PricedPair = PairConfig;

/**
 * Where mid rates come from. Spread, fee and limits always come from the operator's
 * swap_pairs table; a source only supplies the price. A source that cannot vouch for a
 * fresh price leaves the pair out: unavailable (3003), never stale.
 */
export interface RateSource {
  readonly name: string;
  /** Every enabled pair with a fresh price. */
  listPairs(): Promise<PricedPair[]>;
  /** One direction, or null when unknown, disabled or without a fresh price. */
  getPair(fromCurrencyId: number, toCurrencyId: number): Promise<PricedPair | null>;
}

interface PairRow {
  id: number;
  from_currency_id: number;
  from_code: string;
  from_decimals: number;
  from_places: number;
  to_currency_id: number;
  to_code: string;
  to_decimals: number;
  to_places: number;
  mid_rate: string;
  spread_bps: number;
  fee_bps: number;
  fee_currency: FeeCurrencyPolicy;
  min_amount: string | null;
  max_amount: string | null;
  updated_at: Date | string;
  signature: string;
}

/** Enabled pairs between enabled currencies, optionally one direction. */
export async function loadPairConfigs(database: Database, direction?: { from: number; to: number }): Promise<PairConfig[]> {
  const rows = await database.sql.query<PairRow>(
    `select p.id, p.from_currency_id, f.code as from_code, f.decimals as from_decimals,
            least(f.display_decimals, f.decimals) as from_places,
            p.to_currency_id, t.code as to_code, t.decimals as to_decimals,
            least(t.display_decimals, t.decimals) as to_places,
            p.mid_rate::text as mid_rate, p.spread_bps, p.fee_bps, p.fee_currency,
            p.min_amount::text as min_amount, p.max_amount::text as max_amount, p.updated_at,
            coffer_swap_pair_signature(p.from_currency_id, p.to_currency_id) as signature
       from swap_pairs p
       join currencies f on f.id = p.from_currency_id
       join currencies t on t.id = p.to_currency_id
      where p.enabled and f.enabled and t.enabled
        and ($1::integer is null or (p.from_currency_id = $1 and p.to_currency_id = $2::integer))
      order by f.sort, t.sort, p.id`,
    [direction?.from ?? null, direction?.to ?? null],
    { name: 'swap_pair_configs_v3' },
  );
  return rows.map((r) => ({
    id: r.id,
    fromCurrencyId: r.from_currency_id,
    fromCode: r.from_code,
    fromDecimals: r.from_decimals,
    fromPlaces: r.from_places,
    toCurrencyId: r.to_currency_id,
    toCode: r.to_code,
    toDecimals: r.to_decimals,
    toPlaces: r.to_places,
    midRate: r.mid_rate,
    spreadBps: r.spread_bps,
    feeBps: r.fee_bps,
    feeCurrency: r.fee_currency,
    minAmount: r.min_amount,
    maxAmount: r.max_amount,
    updatedAt: new Date(r.updated_at),
    signature: r.signature,
  }));
}
