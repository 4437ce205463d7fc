import type { AdjustRequest } from '@coffer/contract/ledger';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const ADJUST_REQUESTS_KEY = ['console', 'adjust-requests'] as const;

/** GET /api/admin/ledger/adjust-requests: adjustments waiting for a second operator, newest first. */
export const getPendingAdjustRequests = () => apiGet<AdjustRequest[]>('/admin/ledger/adjust-requests?status=pending');

export function usePendingAdjustRequests() {
  return useQuery({ queryKey: ADJUST_REQUESTS_KEY, queryFn: getPendingAdjustRequests });
}
