import type { AccountLinkBody, AdminUserDetail } from '@coffer/contract/admin';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/users/{uid}/links: link another account to this user, with the reason (audited). */
export const linkAccount = (uid: number, body: AccountLinkBody) => apiPost<AdminUserDetail>(`/admin/users/${uid}/links`, body);
