import type { AdjustmentPage, adjustmentQuery } from '@coffer/contract/admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet } from '../../../lib/api';

export type AdjustmentQuery = z.output<typeof adjustmentQuery>;
export const ADJUSTMENTS_KEY = ['console', 'adjustments'] as const;

/** GET /api/admin/ledger/adjustments?uid=&page=&pageSize= */
export const getAdjustments = (query: AdjustmentQuery) => apiGet<AdjustmentPage>('/admin/ledger/adjustments', { ...query });

export function useAdjustments(query: AdjustmentQuery) {
  return useQuery({ queryKey: [...ADJUSTMENTS_KEY, query], queryFn: () => getAdjustments(query), placeholderData: keepPreviousData });
}
