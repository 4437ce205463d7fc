import type { WithdrawRecord } from '@coffer/contract/chain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { balancesQueryKey } from '../../../lib/wallet/balances';
import { withdrawalDetailKey, withdrawalsQueryKey } from '../../../lib/wallet/chain-keys';

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
      void queryClient.invalidateQueries({ queryKey: balancesQueryKey });
      void queryClient.invalidateQueries({ queryKey: [...withdrawalsQueryKey, 'list'] });
      void queryClient.invalidateQueries({ queryKey: [...withdrawalsQueryKey, 'limits'] });
      void queryClient.invalidateQueries({ queryKey: ['turnover'] });
    },
    // 3007: it moved on meanwhile; show what it is now.
    onError: (_error, id) => void queryClient.invalidateQueries({ queryKey: withdrawalDetailKey(id) }),
  });
}
