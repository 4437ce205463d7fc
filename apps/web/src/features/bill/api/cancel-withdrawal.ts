import type { WithdrawRecord } from '@coffer/contract/chain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { withdrawalDetailKey } from '../../../lib/wallet/chain-keys';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/withdraw/cancel/{id}: allowed in review and queued (3007 after that); answers the updated record. */
export function cancelWithdrawal(id: number): Promise<WithdrawRecord> {
  return apiPost<WithdrawRecord>(`/withdraw/cancel/${id}`);
}

export function useCancelWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelWithdrawal,
    onSuccess: (record) => {
      queryClient.setQueryData(withdrawalDetailKey(record.id), record);
      // The held amount and fee are back in the available balance.
      void queryClient.invalidateQueries({ queryKey: queryKeys.balances.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.withdrawals.lists });
      void queryClient.invalidateQueries({ queryKey: queryKeys.withdrawals.allLimits });
      void queryClient.invalidateQueries({ queryKey: queryKeys.turnover.all });
    },
    // 3007: it moved on meanwhile; show what it is now.
    onError: (_error, id) => void queryClient.invalidateQueries({ queryKey: withdrawalDetailKey(id) }),
  });
}
