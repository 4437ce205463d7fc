import type { HouseLimit } from '@coffer/contract/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/swap/house-limits */
export const getHouseLimits = () => api.get<HouseLimit[]>('/admin/swap/house-limits');

export const houseLimitsQuery = () => queryOptions({ queryKey: queryKeys.houseLimits, queryFn: getHouseLimits });

export function useHouseLimits() {
  return useQuery(houseLimitsQuery());
}
