import type { AdminSwapPair } from '@coffer/contract/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/swap/pairs */
export const getSwapPairs = () => api.get<AdminSwapPair[]>('/admin/swap/pairs');

export const swapPairsQuery = () => queryOptions({ queryKey: queryKeys.swapPairs, queryFn: getSwapPairs });

export function useSwapPairs() {
  return useQuery(swapPairsQuery());
}
