import type { ActivityPayouts } from '@coffer/contract/activity';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

/** GET /api/admin/activities/payouts?id= */
export const getPayouts = (id: number) => apiGet<ActivityPayouts>('/admin/activities/payouts', { id });

export function usePayouts(id: number) {
  return useQuery({ queryKey: ['console', 'payouts', id], queryFn: () => getPayouts(id) });
}
