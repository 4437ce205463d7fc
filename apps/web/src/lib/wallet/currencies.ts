import type { Currency } from '@coffer/contract/ledger';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { queryKeys } from '../query-keys';

/* GET /api/currency/list (public). Shared: home, swap, transfer and the statement filters use it. */

export function getCurrencies(): Promise<Currency[]> {
  return apiGet<Currency[]>('/currency/list');
}

export function currenciesQueryOptions() {
  // The list changes only when an operator edits it.
  return queryOptions({ queryKey: queryKeys.currencies, queryFn: getCurrencies, staleTime: 5 * 60_000 });
}

export function useCurrencies() {
  return useQuery(currenciesQueryOptions());
}

/** The currencies a user can move, in display order. */
export function enabledCurrencies(list: readonly Currency[] | undefined): Currency[] {
  return (list ?? []).filter((c) => c.enabled).sort((a, b) => a.sort - b.sort || a.id - b.id);
}
