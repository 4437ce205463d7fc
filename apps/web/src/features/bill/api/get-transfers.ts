import type { PageResponse } from '@coffer/contract/common';
import type { TransferPageBody, TransferRecord } from '@coffer/contract/ledger';
import { apiPost } from '../../../lib/api-client';
import { PAGE_SIZE, usePaged } from '../hooks/use-paged';

/** POST /api/transfer/clientPage: the user's transfers, sent and received, newest first. */
export function getTransfers(body: TransferPageBody): Promise<PageResponse<TransferRecord>> {
  return apiPost<PageResponse<TransferRecord>>('/transfer/clientPage', body);
}

export function useTransfers(enabled = true) {
  return usePaged(['transfers'], (page) => getTransfers({ page, pageSize: PAGE_SIZE }), enabled);
}
