import { useQuery } from '@tanstack/react-query';
import { useFallbackPoll } from '../../../lib/live/status';
import { getDeposits } from '../../../lib/wallet/deposits';
import { queryKeys } from '../../../lib/query-keys';

const PENDING_SHOWN = 20;

/** The deposits on their way: seen in a mempool (0/N, may still be replaced) and confirming. */
const ON_THE_WAY = ['unconfirmed', 'pending'] as const;

/**
 * POST /api/deposit/getDepositList with statuses unconfirmed and pending: the deposits on their way, kept
 * live by the event stream, polled every few seconds while the stream is down.
 */
export function usePendingDeposits() {
  const interval = useFallbackPoll(true);
  return useQuery({
    queryKey: queryKeys.deposits.list({ statuses: ON_THE_WAY }),
    queryFn: () => getDeposits({ page: 1, pageSize: PENDING_SHOWN, statuses: [...ON_THE_WAY] }),
    staleTime: 0,
    refetchInterval: interval,
  });
}
