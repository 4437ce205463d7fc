import type { ActivityAdmin, ActivityUpdateBody } from '@coffer/contract/activity';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/activities/update: only the fields given change. */
export const updateActivity = (body: ActivityUpdateBody) => apiPost<ActivityAdmin>('/admin/activities/update', body);
