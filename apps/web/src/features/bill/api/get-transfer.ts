import type { TransferRecord } from '@coffer/contract/ledger';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/transfer/details/{id} (4004 when it is not the user's). */
export function getTransfer(id: number): Promise<TransferRecord> {
  return apiGet<TransferRecord>(`/transfer/details/${id}`);
}

export function useTransfer(id: number, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.transfers.detail(id), queryFn: () => getTransfer(id), enabled });
}
