import type { AdminNetwork } from '@coffer/contract/network-admin';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const NETWORKS_KEY = ['console', 'networks'] as const;

/** GET /api/admin/networks */
export const getNetworks = () => apiGet<AdminNetwork[]>('/admin/networks');

export function useNetworks() {
  return useQuery({ queryKey: NETWORKS_KEY, queryFn: getNetworks });
}
