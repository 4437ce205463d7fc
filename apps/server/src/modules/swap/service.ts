import type {
  SwapApplyBody,
  SwapApplyData,
  SwapPair,
  SwapQuoteBody,
  SwapQuoteData,
  SwapRecord,
  SwapRecordPage,
  SwapRecordPageBody,
} from '@coffer/contract';
import type { Database } from '../../db/client.ts';
import { applySwap, type SwapCaller } from './apply.ts';
import { listRates, quoteSwap } from './quotes.ts';
import type { RateSource } from './rates/index.ts';
import { findOwnSwap, swapPage } from './records.ts';

/**
 * The swap routes' one object: the database and the rate source, bound once. The work is in
 * quotes.ts (prices and quotes), apply.ts (the swap itself, through the group commit of
 * statements.ts) and records.ts (reading swaps back); house limits are in house-limits.ts.
 */
export class SwapService {
  constructor(
    private readonly database: Database,
    private readonly rates: RateSource,
  ) {}

  listRates(): Promise<SwapPair[]> {
    return listRates(this.rates);
  }

  quote(userId: number, body: SwapQuoteBody): Promise<SwapQuoteData> {
    return quoteSwap(this.database, this.rates, userId, body);
  }

  apply(caller: SwapCaller, body: SwapApplyBody, idempotencyKey: string | null): Promise<SwapApplyData> {
    return applySwap(this.database, this.rates, caller, body, idempotencyKey);
  }

  findOwn(userId: number, swapId: number): Promise<SwapRecord | null> {
    return findOwnSwap(this.database, userId, swapId);
  }

  page(userId: number, body: SwapRecordPageBody): Promise<SwapRecordPage> {
    return swapPage(this.database, userId, body);
  }
}
