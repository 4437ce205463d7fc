import type { AdjustRequest } from '@coffer/contract/ledger';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

export interface AdjustDecision {
  id: number;
  decision: 'approve' | 'reject';
  reason: string;
}

/** POST /api/admin/ledger/adjust-requests/{id}/approve or /reject, with the deciding operator's reason. */
export const decideAdjustRequest = ({ id, decision, reason }: AdjustDecision) =>
  api.post<AdjustRequest>(`/admin/ledger/adjust-requests/${id}/${decision}`, { reason });

export function useDecideAdjustRequest(ui?: WriteUi<AdjustDecision, AdjustRequest>) {
  return useWrite(decideAdjustRequest, { invalidate: [queryKeys.adjustRequests, queryKeys.adjustments.all, queryKeys.dashboard] }, ui);
}
