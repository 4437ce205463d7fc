import type { ConfigsData } from '@coffer/contract/chain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { queryKeys } from '../query-keys';

/* GET /api/configs (public): product name, support address, whether the local test faucet exists. */

export function getConfigs(): Promise<ConfigsData> {
  return apiGet<ConfigsData>('/configs');
}

export function configsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.configs, queryFn: getConfigs, staleTime: 5 * 60_000 });
}

export function useConfigs() {
  return useQuery(configsQueryOptions());
}
