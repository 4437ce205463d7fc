import type { AdjustBody, AdjustResult } from '@coffer/contract/ledger';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/ledger/adjust; the key makes a repeated submit answer the first result. */
export const adjust = (body: AdjustBody, idempotencyKey: string) =>
  apiPost<AdjustResult>('/admin/ledger/adjust', body, { 'idempotency-key': idempotencyKey });
