import type { RecentRecipient } from '@coffer/contract/ledger';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/transfer/recentRecipients: the people this user sent to lately (their own transfers only). */
export function getRecentRecipients(): Promise<RecentRecipient[]> {
  return apiGet<RecentRecipient[]>('/transfer/recentRecipients');
}

export function useRecentRecipients() {
  // Under transfers.all: a transfer sent renews it.
  return useQuery({ queryKey: queryKeys.transfers.recentRecipients, queryFn: getRecentRecipients, staleTime: 60_000 });
}
