import type { FaucetData } from '@coffer/contract/chain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/deposit/faucet (only when configs.faucet): real test funds sent on the local chain to the user's address. */
export function requestFaucet(networkId: number): Promise<FaucetData> {
  return apiPost<FaucetData>('/deposit/faucet', { networkId });
}

export function useFaucet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestFaucet,
    // The watcher sees the transfer within a block; the stream (or the poll) brings it in.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.deposits.all }),
  });
}
