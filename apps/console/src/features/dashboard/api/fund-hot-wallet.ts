import type { FundHotWalletBody, FundHotWalletData } from '@coffer/contract/chain';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/chain/fund: book a funding of the hot wallet as the network's float (docs/decisions/038). */
export const fundHotWallet = (body: FundHotWalletBody) => apiPost<FundHotWalletData>('/admin/chain/fund', body);
