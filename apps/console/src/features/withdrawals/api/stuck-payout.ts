import type { StuckPayoutResult } from '@coffer/contract/chain';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

export type StuckAction = 'cancel-on-chain' | 'fail';

export interface StuckStep {
  act: StuckAction;
  reason: string;
}

/** POST /api/admin/withdraw/{id}/cancel-on-chain or /fail, with the reason (docs/decisions/037). */
export const stuckPayoutAction = (id: number, { act, reason }: StuckStep) =>
  api.post<StuckPayoutResult>(`/admin/withdraw/${id}/${act}`, { reason });

export function useStuckPayoutAction(id: number, ui?: WriteUi<StuckStep, StuckPayoutResult>) {
  return useWrite((step: StuckStep) => stuckPayoutAction(id, step), { invalidate: [queryKeys.openWithdrawals] }, ui);
}
