import type { DepositAddress } from '@coffer/contract/chain';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** GET /api/deposit/getAddressList: the addresses the user already has, one per network. */
export function getAddressList(): Promise<DepositAddress[]> {
  return apiGet<DepositAddress[]>('/deposit/getAddressList');
}

export function addressListQueryOptions() {
  return queryOptions({ queryKey: ['deposit-addresses'], queryFn: getAddressList, staleTime: 60_000 });
}
