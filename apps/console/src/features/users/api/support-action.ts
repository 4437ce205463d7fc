import type { AdminUserDetail, UserSupportBody } from '@coffer/contract/admin';
import { apiPost } from '../../../lib/api';

export type SupportAction = 'sign-out' | 'holds/end';

/** POST /api/admin/users/{uid}/sign-out or /holds/end, with the reason (both audited). */
export const supportAction = (uid: number, action: SupportAction, body: UserSupportBody) =>
  apiPost<AdminUserDetail>(`/admin/users/${uid}/${action}`, body);
