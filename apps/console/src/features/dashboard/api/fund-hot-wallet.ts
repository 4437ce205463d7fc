import type { FundHotWalletBody, FundHotWalletData } from '@coffer/contract/chain';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/chain/fund: book a funding of the hot wallet as the network's float (docs/decisions/038). */
export const fundHotWallet = (body: FundHotWalletBody) => api.post<FundHotWalletData>('/admin/chain/fund', body);

export function useFundHotWallet(ui?: WriteUi<FundHotWalletBody, FundHotWalletData>) {
  return useWrite(fundHotWallet, { invalidate: [queryKeys.dashboard] }, ui);
}
