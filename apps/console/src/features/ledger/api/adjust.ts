import type { AdjustBody, AdjustOutcome } from '@coffer/contract/ledger';
import { apiPost } from '../../../lib/api';

/**
 * POST /api/admin/ledger/adjust; the key makes a repeated submit answer the first result.
 * Above the currency's four-eyes threshold the answer is a pending request, not an entry.
 */
export const adjust = (body: AdjustBody, idempotencyKey: string) =>
  apiPost<AdjustOutcome>('/admin/ledger/adjust', body, { 'idempotency-key': idempotencyKey });
