import type { TurnoverDetail } from '@coffer/contract/turnover';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/getAccountantTurnover/{id}: one statement line with its entry (4004 otherwise). */
export function getTurnoverDetail(id: number): Promise<TurnoverDetail> {
  return apiGet<TurnoverDetail>(`/getAccountantTurnover/${id}`);
}

export function useTurnoverDetail(id: number, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.turnover.detail(id), queryFn: () => getTurnoverDetail(id), enabled });
}
