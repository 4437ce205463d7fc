import type { AdminNetwork } from '@coffer/contract/network-admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/networks */
export const getNetworks = () => api.get<AdminNetwork[]>('/admin/networks');

export const networksQuery = () => queryOptions({ queryKey: queryKeys.networks, queryFn: getNetworks });

export function useNetworks() {
  return useQuery(networksQuery());
}
