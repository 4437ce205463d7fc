import type { AdjustBody, AdjustOutcome } from '@coffer/contract/ledger';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** An adjustment and the key of its submit (the same key for a retry of one submit). */
export interface KeyedAdjustment {
  body: AdjustBody;
  idempotencyKey: string;
}

/**
 * POST /api/admin/ledger/adjust; the key makes a repeated submit answer the first result.
 * Above the currency's four-eyes threshold the answer is a pending request, not an entry.
 */
export const adjust = ({ body, idempotencyKey }: KeyedAdjustment) =>
  api.post<AdjustOutcome>('/admin/ledger/adjust', body, { idempotencyKey });

export function useAdjust(ui?: WriteUi<KeyedAdjustment, AdjustOutcome>) {
  return useWrite(adjust, { invalidate: [queryKeys.adjustments.all, queryKeys.adjustRequests, queryKeys.dashboard] }, ui);
}
