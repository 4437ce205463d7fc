import type { openWithdrawalList } from '@coffer/contract/chain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export type OpenWithdrawal = z.infer<typeof openWithdrawalList>[number];

/** GET /api/admin/withdraw/open: not yet final, oldest first. */
export const getOpenWithdrawals = () => api.get<OpenWithdrawal[]>('/admin/withdraw/open');

export const openWithdrawalsQuery = () => queryOptions({ queryKey: queryKeys.openWithdrawals, queryFn: getOpenWithdrawals });

export function useOpenWithdrawals() {
  return useQuery(openWithdrawalsQuery());
}
