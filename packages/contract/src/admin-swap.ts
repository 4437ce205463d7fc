import { z } from 'zod';
import { amountOrZero, amountString, decimalString, id, isoTime } from './common.ts';
import { operatorReason } from './operator-reason.ts';
import { SWAP_BPS_MAX } from './rules.ts';

/** The swap house as operator data: its pairs and how far it may go short per currency. */

// ---- Swap pairs: GET /api/admin/swap/pairs, POST /api/admin/swap/pairs/{id} ----------------

export const adminSwapPair = z.object({
  id: z.number().int(),
  fromCurrencyId: z.number().int(),
  fromCode: z.string(),
  toCurrencyId: z.number().int(),
  toCode: z.string(),
  /** `to` per `from`, before spread and fee. */
  midRate: decimalString,
  spreadBps: z.number().int(),
  feeBps: z.number().int(),
  feeCurrency: z.enum(['from', 'to']),
  /** Limits in the sold (`from`) currency; null = none. */
  minAmount: decimalString.nullable(),
  maxAmount: decimalString.nullable(),
  enabled: z.boolean(),
  updatedAt: isoTime,
});
export type AdminSwapPair = z.infer<typeof adminSwapPair>;
export const adminSwapPairList = z.array(adminSwapPair);

const bps = z.number().int().min(0).max(SWAP_BPS_MAX);

/** The whole setting of a pair (every field), with the reason; 3002 min above max. */
export const swapPairUpdateBody = z.object({
  midRate: amountString,
  spreadBps: bps,
  feeBps: bps,
  minAmount: amountString.nullable(),
  maxAmount: amountString.nullable(),
  enabled: z.boolean(),
  reason: operatorReason,
});
export type SwapPairUpdateBody = z.infer<typeof swapPairUpdateBody>;
/** `changed` false: the pair was already so; nothing written, no audit row. */
export const swapPairUpdateData = adminSwapPair.extend({ changed: z.boolean() });
export type SwapPairUpdateData = z.infer<typeof swapPairUpdateData>;

// ---- House limits: GET/POST /api/admin/swap/house-limits -----------------------------------

export const houseLimit = z.object({
  currencyId: z.number().int(),
  code: z.string(),
  /** The configured limit (how much the house may owe); null when never set. */
  limit: decimalString.nullable(),
  /** The house account's balance and floor (floor = −limit, or the balance if it owes more). */
  balance: decimalString,
  minBalance: decimalString,
});
export type HouseLimit = z.infer<typeof houseLimit>;
export const houseLimitList = z.array(houseLimit);
export const houseLimitSetBody = z.object({
  currencyId: id,
  limit: amountOrZero,
  reason: operatorReason,
});
export type HouseLimitSetBody = z.infer<typeof houseLimitSetBody>;
/** `changed` false: the limit and floor were already so; nothing written, no audit row. */
export const houseLimitSetData = houseLimit.extend({ changed: z.boolean() });
export type HouseLimitSetData = z.infer<typeof houseLimitSetData>;
