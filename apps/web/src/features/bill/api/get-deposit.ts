import { useQuery } from '@tanstack/react-query';
import { fallbackPollInterval, useLiveStatus } from '../../../lib/live/status';
import { depositDetailKey } from '../../../lib/wallet/chain-keys';
import { getDeposit } from '../../../lib/wallet/deposits';

/** GET /api/deposit/getDepositInfo/{id}; polled while pending if the live stream is down. */
export function useDeposit(id: number, enabled: boolean) {
  const live = useLiveStatus();
  return useQuery({
    queryKey: depositDetailKey(id),
    queryFn: () => getDeposit(id),
    enabled,
    refetchInterval: (query) => fallbackPollInterval(live, query.state.data?.status === 'pending'),
  });
}
