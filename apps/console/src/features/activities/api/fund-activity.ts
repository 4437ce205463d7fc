import type { ActivityFundBody, ActivityFundResult } from '@coffer/contract/activity';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** A funding and the key of its submit (the same key for a retry of one submit). */
export interface KeyedFunding {
  body: ActivityFundBody;
  idempotencyKey: string;
}

/** POST /api/admin/activities/fund: adjustments account -> prize account; keyed against double submits. */
export const fundActivity = ({ body, idempotencyKey }: KeyedFunding) =>
  api.post<ActivityFundResult>('/admin/activities/fund', body, { idempotencyKey });

export function useFundActivity(ui?: WriteUi<KeyedFunding, ActivityFundResult>) {
  return useWrite(fundActivity, { invalidate: [queryKeys.activities] }, ui);
}
