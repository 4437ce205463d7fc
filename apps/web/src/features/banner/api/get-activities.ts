import type { ActivityList } from '@coffer/contract/activity';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/activity/list (public): live, upcoming and recently closed activities, titled in the request's language. */
export function getActivities(): Promise<ActivityList> {
  return apiGet<ActivityList>('/activity/list');
}

export function useActivities(enabled: boolean) {
  const { i18n } = useTranslation();
  return useQuery({ queryKey: queryKeys.activities.list(i18n.language), queryFn: getActivities, enabled });
}
