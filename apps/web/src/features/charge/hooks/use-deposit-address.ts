import type { DepositAddress } from '@coffer/contract/chain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createAddress } from '../api/create-address';
import { addressListQueryOptions } from '../api/get-address-list';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The deposit address for a network: taken from the user's address list when it is there,
 * allocated with createAddress otherwise. An address never changes, so it is cached for good.
 */
export function useDepositAddress(currencyId: number | undefined, networkId: number | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.depositAddress(networkId),
    enabled: currencyId !== undefined && networkId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<DepositAddress> => {
      const list = await queryClient.fetchQuery(addressListQueryOptions());
      const known = list.find((entry) => entry.networkId === networkId);
      return known ?? createAddress({ currencyId: currencyId!, networkId: networkId! });
    },
  });
}
