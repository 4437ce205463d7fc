import { getWithdrawals } from '../../../lib/wallet/withdrawals';
import { PAGE_SIZE, usePaged } from '../hooks/use-paged';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/withdraw/list: the user's withdrawals, newest first (the stream keeps them current). */
export function useWithdrawalPages(enabled = true) {
  return usePaged(queryKeys.withdrawals.list('all'), (page) => getWithdrawals({ page, pageSize: PAGE_SIZE }), enabled);
}
