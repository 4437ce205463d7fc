import type { SwapPair, SwapRatesData } from '@coffer/contract/swap';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { queryKeys } from '../query-keys';

/* GET /api/swap/rates (public): home prices the wallet with it, swap shows it. */

export function getSwapRates(): Promise<SwapRatesData> {
  return apiGet<SwapRatesData>('/swap/rates');
}

export function swapRatesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.swapRates, queryFn: getSwapRates, staleTime: 15_000 });
}

export function useSwapRates() {
  return useQuery(swapRatesQueryOptions());
}

export function findPair(pairs: readonly SwapPair[] | undefined, fromId: number | undefined, toId: number | undefined) {
  return pairs?.find((p) => p.fromCurrencyId === fromId && p.toCurrencyId === toId);
}
