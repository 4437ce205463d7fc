import { AMOUNT_RE, isAmountWithinLimits, isPositiveAmount } from '@coffer/contract/rules';
import { z } from 'zod';
import type { Database } from '../../../db/client.ts';
import { Decimal, RATE_DECIMALS } from '../pricing.ts';
import { loadPairConfigs, type PairConfig, type PricedPair, type RateSource } from './source.ts';

/** How long one fetched document is reused before the feed is asked again. */
export const FEED_CACHE_MS = 1_000;
/** A feed slower than this counts as failing. */
export const FEED_TIMEOUT_MS = 3_000;

/**
 * The feed document: prices of each currency code in one common unit (e.g. USD), as
 * decimal strings, and when they were taken. Pair mid = price(from) / price(to).
 *   { "updatedAt": "2026-11-22T08:00:00Z", "prices": { "USDT": "1", "ETH": "3012.5" } }
 */
const feedDocument = z.object({
  updatedAt: z.iso.datetime({ offset: true }),
  prices: z.record(
    z.string().min(1).max(16),
    z
      .string()
      .refine((v) => AMOUNT_RE.test(v) && isAmountWithinLimits(v), 'price must be a decimal within NUMERIC(38,18)')
      .refine(isPositiveAmount, 'price must be positive'),
  ),
});

interface FeedSnapshot {
  prices: Map<string, string>;
  updatedAt: Date;
  fetchedAt: number;
}

export interface ExternalFeedOptions {
  url: string;
  maxAgeSeconds: number;
  cacheMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * Mid rates from an external JSON price feed; spread, fee and limits stay the operator's.
 * A feed that fails, answers garbage or is older than maxAgeSeconds makes every pair
 * unavailable: no price is better than a stale one.
 */
export class ExternalFeedRateSource implements RateSource {
  readonly name = 'external-feed';
  private cached: FeedSnapshot | null = null;
  private inflight: Promise<FeedSnapshot | null> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly database: Database,
    private readonly options: ExternalFeedOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async listPairs(): Promise<PricedPair[]> {
    const feed = await this.freshFeed();
    if (!feed) return [];
    const configs = await loadPairConfigs(this.database);
    return configs.map((c) => this.price(c, feed)).filter((p): p is PricedPair => p !== null);
  }

  async getPair(fromCurrencyId: number, toCurrencyId: number): Promise<PricedPair | null> {
    const feed = await this.freshFeed();
    if (!feed) return null;
    const [config] = await loadPairConfigs(this.database, { from: fromCurrencyId, to: toCurrencyId });
    return config ? this.price(config, feed) : null;
  }

  private price(config: PairConfig, feed: FeedSnapshot): PricedPair | null {
    const from = feed.prices.get(config.fromCode);
    const to = feed.prices.get(config.toCode);
    if (!from || !to) return null;
    const mid = new Decimal(from).div(to).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_DOWN);
    if (mid.lte(0)) return null;
    return { ...config, midRate: mid.toFixed(), updatedAt: feed.updatedAt };
  }

  /** The feed document if it is fresh enough, else null. */
  private async freshFeed(): Promise<FeedSnapshot | null> {
    const cacheMs = this.options.cacheMs ?? FEED_CACHE_MS;
    let feed = this.cached && this.now() - this.cached.fetchedAt < cacheMs ? this.cached : null;
    if (!feed) {
      this.inflight ??= this.fetchFeed().finally(() => {
        this.inflight = null;
      });
      feed = await this.inflight;
      this.cached = feed;
    }
    if (!feed) return null;
    const ageMs = this.now() - feed.updatedAt.getTime();
    return ageMs <= this.options.maxAgeSeconds * 1000 ? feed : null;
  }

  private async fetchFeed(): Promise<FeedSnapshot | null> {
    try {
      const res = await fetch(this.options.url, {
        signal: AbortSignal.timeout(this.options.timeoutMs ?? FEED_TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) return null;
      const parsed = feedDocument.safeParse(await res.json());
      if (!parsed.success) return null;
      const prices = new Map(Object.entries(parsed.data.prices).map(([code, price]) => [code.toUpperCase(), price]));
      return { prices, updatedAt: new Date(parsed.data.updatedAt), fetchedAt: this.now() };
    } catch {
      return null;
    }
  }
}
