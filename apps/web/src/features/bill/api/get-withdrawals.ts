import { withdrawalsQueryKey } from '../../../lib/wallet/chain-keys';
import { getWithdrawals } from '../../../lib/wallet/withdrawals';
import { PAGE_SIZE, usePaged } from '../hooks/use-paged';

/** POST /api/withdraw/list: the user's withdrawals, newest first (the stream keeps them current). */
export function useWithdrawalPages(enabled = true) {
  return usePaged([...withdrawalsQueryKey, 'list', 'all'], (page) => getWithdrawals({ page, pageSize: PAGE_SIZE }), enabled);
}
