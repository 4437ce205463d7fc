import type { ActivityAdminList } from '@coffer/contract/activity';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const ACTIVITIES_KEY = ['console', 'activities'] as const;

/** GET /api/admin/activities/list */
export const getActivities = () => apiGet<ActivityAdminList>('/admin/activities/list');

export function useActivities() {
  return useQuery({ queryKey: ACTIVITIES_KEY, queryFn: getActivities });
}
