import type { Currency } from '@coffer/contract/ledger';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';

/** GET /api/currency/list: the currencies an operator can pick (adjustments, prizes). */
export const getCurrencies = () => api.get<Currency[]>('/currency/list');

export const currenciesQuery = () => queryOptions({ queryKey: queryKeys.currencies, queryFn: getCurrencies, staleTime: 5 * 60_000 });

export function useCurrencies() {
  return useQuery(currenciesQuery());
}
