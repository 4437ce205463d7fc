import type { ActivityPayouts } from '@coffer/contract/activity';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/activities/payouts?id= */
export const getPayouts = (id: number) => api.get<ActivityPayouts>('/admin/activities/payouts', { id });

export const payoutsQuery = (id: number) => queryOptions({ queryKey: queryKeys.payouts(id), queryFn: () => getPayouts(id) });

export function usePayouts(id: number) {
  return useQuery(payoutsQuery(id));
}
