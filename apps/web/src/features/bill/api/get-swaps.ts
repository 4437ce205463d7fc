import type { SwapRecordPage, SwapRecordPageBody } from '@coffer/contract/swap';
import { apiPost } from '../../../lib/api-client';
import { PAGE_SIZE, usePaged } from '../hooks/use-paged';

/** POST /api/swap/swapRecordPage: the user's swaps, newest first. */
export function getSwaps(body: SwapRecordPageBody): Promise<SwapRecordPage> {
  return apiPost<SwapRecordPage>('/swap/swapRecordPage', body);
}

export function useSwaps(enabled = true) {
  return usePaged(['swaps'], (page) => getSwaps({ page, pageSize: PAGE_SIZE }), enabled);
}
