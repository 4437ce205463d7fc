import type { Currency } from '@coffer/contract/ledger';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from './api';

/** GET /api/currency/list: the currencies an operator can pick (adjustments, prizes). */
export const getCurrencies = () => apiGet<Currency[]>('/currency/list');

export function useCurrencies() {
  return useQuery({ queryKey: ['console', 'currencies'], queryFn: getCurrencies, staleTime: 5 * 60_000 });
}
