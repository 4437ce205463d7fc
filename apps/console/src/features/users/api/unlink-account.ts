import type { AdminUserDetail } from '@coffer/contract/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';
import { storeUserDetail } from './user-detail';

export interface Unlinking {
  linkId: number;
  reason: string;
}

/** POST /api/admin/users/{uid}/links/{id}/remove: remove a link of this user's, with the reason (audited). */
export const unlinkAccount = (uid: number, { linkId, reason }: Unlinking) =>
  api.post<AdminUserDetail>(`/admin/users/${uid}/links/${linkId}/remove`, { reason });

/** The other account's page listed the link too: every user page is stale. */
export function useUnlinkAccount(uid: number, ui?: WriteUi<Unlinking, AdminUserDetail>) {
  return useWrite(
    (unlinking: Unlinking) => unlinkAccount(uid, unlinking),
    { update: storeUserDetail, invalidate: [queryKeys.user.all] },
    ui,
  );
}
