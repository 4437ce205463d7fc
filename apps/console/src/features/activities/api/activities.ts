import type { ActivityAdminList } from '@coffer/contract/activity';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/activities/list */
export const getActivities = () => api.get<ActivityAdminList>('/admin/activities/list');

export const activitiesQuery = () => queryOptions({ queryKey: queryKeys.activities, queryFn: getActivities });

export function useActivities() {
  return useQuery(activitiesQuery());
}
