import { depositsQueryKey } from '../../../lib/wallet/chain-keys';
import { getDeposits } from '../../../lib/wallet/deposits';
import { PAGE_SIZE, usePaged } from '../hooks/use-paged';

/** POST /api/deposit/getDepositList: the user's deposits, newest first (the stream keeps them current). */
export function useDepositPages(enabled = true) {
  return usePaged([...depositsQueryKey, 'list', 'all'], (page) => getDeposits({ page, pageSize: PAGE_SIZE }), enabled);
}
