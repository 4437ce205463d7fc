import type { AccountLinkRemoveBody, AdminUserDetail } from '@coffer/contract/admin';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/users/{uid}/links/{id}/remove: remove a link of this user's, with the reason (audited). */
export const unlinkAccount = (uid: number, linkId: number, body: AccountLinkRemoveBody) =>
  apiPost<AdminUserDetail>(`/admin/users/${uid}/links/${linkId}/remove`, body);
