import type { DepositListBody, DepositRecord } from '@coffer/contract/chain';
import type { PageResponse } from '@coffer/contract/common';
import { apiGet, apiPost } from '../api-client';

/* POST /api/deposit/getDepositList and GET /api/deposit/getDepositInfo/{id}: shared by the charge page and the bills. */

export function getDeposits(body: DepositListBody): Promise<PageResponse<DepositRecord>> {
  return apiPost<PageResponse<DepositRecord>>('/deposit/getDepositList', body);
}

/** 4004 when the deposit is not the user's. */
export function getDeposit(id: number): Promise<DepositRecord> {
  return apiGet<DepositRecord>(`/deposit/getDepositInfo/${id}`);
}
