import type { openWithdrawalList } from '@coffer/contract/chain';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet } from '../../../lib/api';

export type OpenWithdrawal = z.infer<typeof openWithdrawalList>[number];
export const OPEN_WITHDRAWALS_KEY = ['console', 'open-withdrawals'] as const;

/** GET /api/admin/withdraw/open: not yet final, oldest first. */
export const getOpenWithdrawals = () => apiGet<OpenWithdrawal[]>('/admin/withdraw/open');

export function useOpenWithdrawals() {
  return useQuery({ queryKey: OPEN_WITHDRAWALS_KEY, queryFn: getOpenWithdrawals });
}
