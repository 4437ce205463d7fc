import type { ActivityAdmin, ActivityCreateBody } from '@coffer/contract/activity';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/activities/create */
export const createActivity = (body: ActivityCreateBody) => apiPost<ActivityAdmin>('/admin/activities/create', body);
