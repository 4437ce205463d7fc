import type { SwapRecord } from '@coffer/contract/swap';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/swap/{id} (4004 when it is not the user's). */
export function getSwap(id: number): Promise<SwapRecord> {
  return apiGet<SwapRecord>(`/swap/${id}`);
}

export function useSwap(id: number, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.swaps.detail(id), queryFn: () => getSwap(id), enabled });
}
