import type { SwapApplyBody, SwapApplyData } from '@coffer/contract/swap';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { fieldCodesOf } from '../../../lib/form-errors';
import { IDEMPOTENCY_HEADER } from '@coffer/api-client/idempotency';
import { SWAP_APPLY_ERRORS } from './swap-fields';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/swap/apply at the quoted rate (3006 once the quote has expired). */
export function applySwap(body: SwapApplyBody, idempotencyKey: string): Promise<SwapApplyData> {
  return apiPost<SwapApplyData>('/swap/apply', body, {
    headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
    fieldCodes: fieldCodesOf(SWAP_APPLY_ERRORS),
  });
}

export function useApplySwap() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SwapApplyBody; idempotencyKey: string }) => applySwap(body, idempotencyKey),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.balances.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.swaps.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.turnover.all });
    },
  });
}
