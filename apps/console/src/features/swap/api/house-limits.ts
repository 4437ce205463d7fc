import type { HouseLimit } from '@coffer/contract/admin';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const HOUSE_LIMITS_KEY = ['console', 'house-limits'] as const;

/** GET /api/admin/swap/house-limits */
export const getHouseLimits = () => apiGet<HouseLimit[]>('/admin/swap/house-limits');

export function useHouseLimits() {
  return useQuery({ queryKey: HOUSE_LIMITS_KEY, queryFn: getHouseLimits });
}
