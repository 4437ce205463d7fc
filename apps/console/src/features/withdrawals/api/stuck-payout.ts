import type { StuckPayoutResult, stuckPayoutBody } from '@coffer/contract/chain';
import type { z } from 'zod';
import { apiPost } from '../../../lib/api';

export type StuckAction = 'cancel-on-chain' | 'fail';

/** POST /api/admin/withdraw/{id}/cancel-on-chain or /fail, with the reason (docs/decisions/037). */
export const stuckPayoutAction = (id: number, action: StuckAction, body: z.infer<typeof stuckPayoutBody>) =>
  apiPost<StuckPayoutResult>(`/admin/withdraw/${id}/${action}`, body);
