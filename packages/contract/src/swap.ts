import { z } from 'zod';
import { amountOrZero, amountString, decimalString, id, isoTime, pageRequest, pageResponse } from './common.ts';
import { stepUpProof } from './step-up.ts';

export { SWAP_QUOTE_TTL_SECONDS } from './rules.ts';

/** Which side the fee is taken from: the sold currency or the bought one. */
export const feeCurrencyPolicy = z.enum(['from', 'to']);
export type FeeCurrencyPolicy = z.infer<typeof feeCurrencyPolicy>;

/** One tradable direction, with what the user actually gets (after spread). */
export const swapPair = z.object({
  fromCurrencyId: z.number().int(),
  fromCurrency: z.string(),
  toCurrencyId: z.number().int(),
  toCurrency: z.string(),
  /** Units of `to` per unit of `from`, after the spread, before the fee. */
  rate: decimalString,
  /** Units of `to` per unit of `from` after spread and fee. */
  effectiveRate: decimalString,
  spreadBps: z.number().int(),
  feeBps: z.number().int(),
  feeCurrencyId: z.number().int(),
  /** Smallest and largest amount to sell, in `from`; null means unbounded. */
  minAmount: decimalString.nullable(),
  maxAmount: decimalString.nullable(),
  updatedAt: isoTime,
});
export type SwapPair = z.infer<typeof swapPair>;

export const swapRatesData = z.object({ list: z.array(swapPair) });
export type SwapRatesData = z.infer<typeof swapRatesData>;

/** `amount` is what is sold, in `fromCurrencyId`. */
export const swapQuoteBody = z.object({
  fromCurrencyId: id,
  toCurrencyId: id,
  amount: amountString,
});
export type SwapQuoteBody = z.infer<typeof swapQuoteBody>;

export const swapQuoteData = z.object({
  quoteId: z.number().int(),
  fromCurrencyId: z.number().int(),
  toCurrencyId: z.number().int(),
  rate: decimalString,
  fromAmount: decimalString,
  toAmount: decimalString,
  fee: decimalString,
  feeCurrencyId: z.number().int(),
  expiresAt: isoTime,
});
export type SwapQuoteData = z.infer<typeof swapQuoteData>;

/** Send an Idempotency-Key header; with quoteId the quoted rate applies (or 3006). */
export const swapApplyBody = swapQuoteBody.extend({ quoteId: id.optional(), ...stepUpProof });
export type SwapApplyBody = z.infer<typeof swapApplyBody>;

export const swapRecord = z.object({
  id: z.number().int(),
  entryId: z.number().int(),
  quoteId: z.number().int().nullable(),
  fromCurrencyId: z.number().int(),
  fromCurrency: z.string(),
  toCurrencyId: z.number().int(),
  toCurrency: z.string(),
  fromAmount: decimalString,
  toAmount: decimalString,
  rate: decimalString,
  midRate: decimalString,
  fee: decimalString,
  feeCurrencyId: z.number().int(),
  feeCurrency: z.string(),
  createdAt: isoTime,
});
export type SwapRecord = z.infer<typeof swapRecord>;

/** What apply answers; `replayed` is true when an Idempotency-Key repeated an earlier swap. */
export const swapApplyData = swapRecord.extend({ replayed: z.boolean() });
export type SwapApplyData = z.infer<typeof swapApplyData>;

export const swapRecordPageBody = pageRequest.extend({
  fromCurrencyId: id.optional(),
  toCurrencyId: id.optional(),
  /** Either side of the swap. */
  currencyId: id.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type SwapRecordPageBody = z.infer<typeof swapRecordPageBody>;

export const swapRecordPage = pageResponse(swapRecord);
export type SwapRecordPage = z.infer<typeof swapRecordPage>;

/** Operator: the house may owe at most `limit` of a currency (its floor is -limit). */
export const houseLimitBody = z.object({ currencyId: id, limit: amountOrZero });
export type HouseLimitBody = z.infer<typeof houseLimitBody>;

export const houseLimitData = z.object({
  currencyId: z.number().int(),
  limit: decimalString,
  balance: decimalString,
  minBalance: decimalString,
});
export type HouseLimitData = z.infer<typeof houseLimitData>;
