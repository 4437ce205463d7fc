import type { WithdrawRecord, withdrawReviewBody } from '@coffer/contract/chain';
import type { z } from 'zod';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/withdraw/{id}/approve or /reject, with the reason. */
export const reviewWithdrawal = (id: number, decision: 'approve' | 'reject', body: z.infer<typeof withdrawReviewBody>) =>
  apiPost<WithdrawRecord>(`/admin/withdraw/${id}/${decision}`, body);
