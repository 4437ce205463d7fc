import { useQuery } from '@tanstack/react-query';
import { useFallbackPoll } from '../../../lib/live/status';
import { getDeposits } from '../../../lib/wallet/deposits';
import { queryKeys } from '../../../lib/query-keys';

const PENDING_SHOWN = 20;

/**
 * POST /api/deposit/getDepositList with status pending: the deposits on their way, kept
 * live by the event stream, polled every few seconds while the stream is down.
 */
export function usePendingDeposits() {
  const interval = useFallbackPoll(true);
  return useQuery({
    queryKey: queryKeys.deposits.list({ status: 'pending' }),
    queryFn: () => getDeposits({ page: 1, pageSize: PENDING_SHOWN, status: 'pending' }),
    staleTime: 0,
    refetchInterval: interval,
  });
}
