import { getDeposits } from '../../../lib/wallet/deposits';
import { PAGE_SIZE, usePaged } from '../hooks/use-paged';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/deposit/getDepositList: the user's deposits, newest first (the stream keeps them current). */
export function useDepositPages(enabled = true) {
  return usePaged(queryKeys.deposits.list('all'), (page) => getDeposits({ page, pageSize: PAGE_SIZE }), enabled);
}
