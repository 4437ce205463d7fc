import type { Balance } from '@coffer/contract/ledger';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { queryKeys } from '../query-keys';

/* GET /api/currency/balances and /api/currency/balance/{id} (signed in). */

export function getBalances(): Promise<Balance[]> {
  return apiGet<Balance[]>('/currency/balances');
}

export function getBalance(currencyId: number): Promise<Balance> {
  return apiGet<Balance>(`/currency/balance/${currencyId}`);
}

export function balancesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.balances.all, queryFn: getBalances, staleTime: 10_000 });
}

export function useBalances(enabled = true) {
  return useQuery({ ...balancesQueryOptions(), enabled });
}

/** One currency's balance, fresh: checked right before money moves. */
export function useBalance(currencyId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.balances.one(currencyId),
    queryFn: () => getBalance(currencyId!),
    enabled: currencyId !== undefined,
    staleTime: 0,
  });
}
