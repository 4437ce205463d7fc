import type { AdjustDecisionBody, AdjustRequest } from '@coffer/contract/ledger';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/ledger/adjust-requests/{id}/approve or /reject, with the deciding operator's reason. */
export const decideAdjustRequest = (id: number, decision: 'approve' | 'reject', body: AdjustDecisionBody) =>
  apiPost<AdjustRequest>(`/admin/ledger/adjust-requests/${id}/${decision}`, body);
