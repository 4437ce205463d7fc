import type { AccountLinkBody, AdminUserDetail } from '@coffer/contract/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';
import { storeUserDetail } from './user-detail';

/** POST /api/admin/users/{uid}/links: link another account to this user, with the reason (audited). */
export const linkAccount = (uid: number, body: AccountLinkBody) => api.post<AdminUserDetail>(`/admin/users/${uid}/links`, body);

/** The other account's page lists the link too: every user page is stale. */
export function useLinkAccount(uid: number, ui?: WriteUi<AccountLinkBody, AdminUserDetail>) {
  return useWrite((body: AccountLinkBody) => linkAccount(uid, body), { update: storeUserDetail, invalidate: [queryKeys.user.all] }, ui);
}
