import type { AdminUserDetail } from '@coffer/contract/admin';
import { api } from '../../../lib/api';
import { useWrite, type WriteUi } from '../../../lib/use-write';
import { storeUserDetail } from './user-detail';

export type SupportAction = 'sign-out' | 'holds/end';

export interface Support {
  action: SupportAction;
  reason: string;
}

/** POST /api/admin/users/{uid}/sign-out or /holds/end, with the reason (both audited). */
export const supportAction = (uid: number, { action, reason }: Support) =>
  api.post<AdminUserDetail>(`/admin/users/${uid}/${action}`, { reason });

export function useSupportAction(uid: number, ui?: WriteUi<Support, AdminUserDetail>) {
  return useWrite((support: Support) => supportAction(uid, support), { update: storeUserDetail }, ui);
}
