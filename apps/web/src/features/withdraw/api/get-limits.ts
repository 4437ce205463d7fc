import type { WithdrawLimits } from '@coffer/contract/chain';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { withdrawLimitsKey } from '../../../lib/wallet/chain-keys';

/** GET /api/withdraw/limits?networkId=: fee, min, max, what is left today, available, freeze. */
export function getWithdrawLimits(networkId: number): Promise<WithdrawLimits> {
  return apiGet<WithdrawLimits>('/withdraw/limits', { networkId });
}

/** Fresh whenever the page looks: the balance and the day's remainder change with every withdrawal. */
export function useWithdrawLimits(networkId: number | undefined) {
  return useQuery({
    queryKey: withdrawLimitsKey(networkId ?? 0),
    queryFn: () => getWithdrawLimits(networkId!),
    enabled: networkId !== undefined,
    staleTime: 0,
  });
}
