import type { HouseLimitSetBody, HouseLimitSetData } from '@coffer/contract/admin';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/swap/house-limits */
export const setHouseLimit = (body: HouseLimitSetBody) => apiPost<HouseLimitSetData>('/admin/swap/house-limits', body);
