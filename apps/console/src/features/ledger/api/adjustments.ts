import type { AdjustmentPage, adjustmentQuery } from '@coffer/contract/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export type AdjustmentQuery = z.output<typeof adjustmentQuery>;

/** GET /api/admin/ledger/adjustments?uid=&page=&pageSize= */
export const getAdjustments = (query: AdjustmentQuery) => api.get<AdjustmentPage>('/admin/ledger/adjustments', { ...query });

export const adjustmentsQuery = (query: AdjustmentQuery) =>
  queryOptions({ queryKey: queryKeys.adjustments.page(query), queryFn: () => getAdjustments(query), placeholderData: keepPreviousData });

export function useAdjustments(query: AdjustmentQuery) {
  return useQuery(adjustmentsQuery(query));
}
