import type { HouseLimitSetBody, HouseLimitSetData } from '@coffer/contract/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/swap/house-limits */
export const setHouseLimit = (body: HouseLimitSetBody) => api.post<HouseLimitSetData>('/admin/swap/house-limits', body);

export function useSetHouseLimit(ui?: WriteUi<HouseLimitSetBody, HouseLimitSetData>) {
  return useWrite(setHouseLimit, { invalidate: [queryKeys.houseLimits] }, ui);
}
