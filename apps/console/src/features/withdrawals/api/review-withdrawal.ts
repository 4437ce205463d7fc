import type { WithdrawRecord } from '@coffer/contract/chain';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

export interface Review {
  id: number;
  decision: 'approve' | 'reject';
  reason: string;
}

/** POST /api/admin/withdraw/{id}/approve or /reject, with the reason. */
export const reviewWithdrawal = ({ id, decision, reason }: Review) =>
  api.post<WithdrawRecord>(`/admin/withdraw/${id}/${decision}`, { reason });

export function useReviewWithdrawal(ui?: WriteUi<Review, WithdrawRecord>) {
  return useWrite(reviewWithdrawal, { invalidate: [queryKeys.openWithdrawals, queryKeys.dashboard] }, ui);
}
