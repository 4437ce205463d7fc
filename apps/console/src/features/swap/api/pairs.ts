import type { AdminSwapPair } from '@coffer/contract/admin';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const SWAP_PAIRS_KEY = ['console', 'swap-pairs'] as const;

/** GET /api/admin/swap/pairs */
export const getSwapPairs = () => apiGet<AdminSwapPair[]>('/admin/swap/pairs');

export function useSwapPairs() {
  return useQuery({ queryKey: SWAP_PAIRS_KEY, queryFn: getSwapPairs });
}
