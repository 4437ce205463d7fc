import type { AdminUserDetail, UserStatusBody } from '@coffer/contract/admin';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/users/{uid}/disable or /enable, with the reason. */
export const setUserStatus = (uid: number, action: 'disable' | 'enable', body: UserStatusBody) =>
  apiPost<AdminUserDetail>(`/admin/users/${uid}/${action}`, body);
