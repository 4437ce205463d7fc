import type { AdminUserDetail } from '@coffer/contract/admin';
import { api } from '../../../lib/api';
import { useWrite, type WriteUi } from '../../../lib/use-write';
import { storeUserDetail } from './user-detail';

export interface ResetStep {
  action: 'open' | 'cancel';
  reason: string;
}

/** POST /api/admin/users/{uid}/two-factor-reset (open) or .../two-factor-reset/cancel, with the reason. */
export const twoFactorReset = (uid: number, { action, reason }: ResetStep) =>
  api.post<AdminUserDetail>(`/admin/users/${uid}/two-factor-reset${action === 'cancel' ? '/cancel' : ''}`, { reason });

export function useTwoFactorReset(uid: number, ui?: WriteUi<ResetStep, AdminUserDetail>) {
  return useWrite((step: ResetStep) => twoFactorReset(uid, step), { update: storeUserDetail }, ui);
}
