/** What other modules may use from swap: the house's rate source (the withdrawal fee quote converts gas at it). */
export { createRateSource, type PricedPair, type RateSource } from './rates/index.ts';
export { Decimal, rateAfterSpread } from './pricing.ts';
