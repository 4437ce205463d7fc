import type { ActivityDetails } from '@coffer/contract/activity';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiPost } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/activity/details {id} (public): title and rules in the request's language, window, prizes. */
export function getActivity(id: number): Promise<ActivityDetails> {
  return apiPost<ActivityDetails>('/activity/details', { id });
}

export function useActivity(id: number | null) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.activities.detail(id, i18n.language),
    queryFn: () => getActivity(id!),
    enabled: id !== null,
  });
}
