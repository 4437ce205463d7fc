import type { DepositAddress } from '@coffer/contract/chain';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/deposit/getAddressList: the addresses the user already has, one per network. */
export function getAddressList(): Promise<DepositAddress[]> {
  return apiGet<DepositAddress[]>('/deposit/getAddressList');
}

export function addressListQueryOptions() {
  return queryOptions({ queryKey: queryKeys.depositAddresses, queryFn: getAddressList, staleTime: 60_000 });
}
