import type { SwapPairUpdateBody, SwapPairUpdateData } from '@coffer/contract/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/swap/pairs/{id}: the pair's whole setting with the reason (changed: false when already so). */
export const updateSwapPair = (id: number, body: SwapPairUpdateBody) => api.post<SwapPairUpdateData>(`/admin/swap/pairs/${id}`, body);

export function useUpdateSwapPair(id: number, ui?: WriteUi<SwapPairUpdateBody, SwapPairUpdateData>) {
  return useWrite((body: SwapPairUpdateBody) => updateSwapPair(id, body), { invalidate: [queryKeys.swapPairs] }, ui);
}
