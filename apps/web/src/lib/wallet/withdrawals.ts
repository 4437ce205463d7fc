import type { WithdrawListBody, WithdrawRecord, WithdrawStatus } from '@coffer/contract/chain';
import { WITHDRAW_FINAL } from '@coffer/contract/rules';
import type { PageResponse } from '@coffer/contract/common';
import { useQuery } from '@tanstack/react-query';
import { apiGet, apiPost } from '../api-client';
import { fallbackPollInterval, useLiveStatus } from '../live/status';
import { withdrawalDetailKey } from './chain-keys';

/* POST /api/withdraw/list and GET /api/withdraw/detail/{id}: shared by the withdraw result and the bills. */

export function getWithdrawals(body: WithdrawListBody): Promise<PageResponse<WithdrawRecord>> {
  return apiPost<PageResponse<WithdrawRecord>>('/withdraw/list', body);
}

/** 4004 when the withdrawal is not the user's. */
export function getWithdrawal(id: number): Promise<WithdrawRecord> {
  return apiGet<WithdrawRecord>(`/withdraw/detail/${id}`);
}

export function isWithdrawFinal(status: WithdrawStatus): boolean {
  return WITHDRAW_FINAL.includes(status);
}

/**
 * One withdrawal, kept current: the live stream marks it stale on each change, and while
 * the stream is down it is polled until it reaches a final state.
 */
export function useWithdrawal(id: number, enabled: boolean, initialData?: WithdrawRecord) {
  const live = useLiveStatus();
  return useQuery({
    queryKey: withdrawalDetailKey(id),
    queryFn: () => getWithdrawal(id),
    enabled,
    initialData,
    refetchInterval: (query) => {
      const data = query.state.data;
      return fallbackPollInterval(live, data !== undefined && !isWithdrawFinal(data.status));
    },
  });
}
