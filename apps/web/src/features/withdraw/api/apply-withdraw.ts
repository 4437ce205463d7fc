import type { WithdrawApplyBody, WithdrawApplyData } from '@coffer/contract/chain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { IDEMPOTENCY_HEADER } from '../../../lib/idempotency';
import { balancesQueryKey } from '../../../lib/wallet/balances';
import { withdrawalDetailKey, withdrawalsQueryKey } from '../../../lib/wallet/chain-keys';

/** POST /api/withdraw/apply with the submit's Idempotency-Key; a replay answers the first record (replayed: true). */
export function applyWithdraw(body: WithdrawApplyBody, idempotencyKey: string): Promise<WithdrawApplyData> {
  return apiPost<WithdrawApplyData>('/withdraw/apply', body, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });
}

export interface ApplyWithdrawInput {
  body: WithdrawApplyBody;
  idempotencyKey: string;
}

/** Holds amount + fee at once: balances, limits and the withdrawal lists are stale afterwards. */
export function useApplyWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: ApplyWithdrawInput) => applyWithdraw(body, idempotencyKey),
    onSuccess: ({ replayed: _replayed, ...record }) => {
      queryClient.setQueryData(withdrawalDetailKey(record.id), record);
      void queryClient.invalidateQueries({ queryKey: balancesQueryKey });
      void queryClient.invalidateQueries({ queryKey: withdrawalsQueryKey });
      void queryClient.invalidateQueries({ queryKey: ['turnover'] });
    },
  });
}
