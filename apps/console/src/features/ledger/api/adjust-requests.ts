import type { AdjustRequest } from '@coffer/contract/ledger';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/ledger/adjust-requests: adjustments waiting for a second operator, newest first. */
export const getPendingAdjustRequests = () => api.get<AdjustRequest[]>('/admin/ledger/adjust-requests', { status: 'pending' });

export const pendingAdjustRequestsQuery = () => queryOptions({ queryKey: queryKeys.adjustRequests, queryFn: getPendingAdjustRequests });

export function usePendingAdjustRequests() {
  return useQuery(pendingAdjustRequestsQuery());
}
