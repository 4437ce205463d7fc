import type { AdminUserDetail } from '@coffer/contract/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';
import { storeUserDetail } from './user-detail';

export interface StatusChange {
  action: 'disable' | 'enable';
  reason: string;
}

/** POST /api/admin/users/{uid}/disable or /enable, with the reason. */
export const setUserStatus = (uid: number, { action, reason }: StatusChange) =>
  api.post<AdminUserDetail>(`/admin/users/${uid}/${action}`, { reason });

export function useSetUserStatus(uid: number, ui?: WriteUi<StatusChange, AdminUserDetail>) {
  return useWrite((change: StatusChange) => setUserStatus(uid, change), { update: storeUserDetail, invalidate: [queryKeys.users.all] }, ui);
}
