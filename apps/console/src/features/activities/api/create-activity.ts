import type { ActivityAdmin, ActivityCreateBody } from '@coffer/contract/activity';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/activities/create */
export const createActivity = (body: ActivityCreateBody) => api.post<ActivityAdmin>('/admin/activities/create', body);

export function useCreateActivity(ui?: WriteUi<ActivityCreateBody, ActivityAdmin>) {
  return useWrite(createActivity, { invalidate: [queryKeys.activities] }, ui);
}
