import type { ActivityAdmin, ActivityUpdateBody } from '@coffer/contract/activity';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/activities/update: only the fields given change. */
export const updateActivity = (body: ActivityUpdateBody) => api.post<ActivityAdmin>('/admin/activities/update', body);

export function useUpdateActivity(ui?: WriteUi<ActivityUpdateBody, ActivityAdmin>) {
  return useWrite(updateActivity, { invalidate: [queryKeys.activities] }, ui);
}
