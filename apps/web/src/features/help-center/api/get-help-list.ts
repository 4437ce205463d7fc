import type { HelpList } from '@coffer/contract/content';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/help/list?q=: topics with their articles; with q, only titles that match (server-side, in the request's language). */
export function getHelpList(q: string | undefined): Promise<HelpList> {
  return apiGet<HelpList>('/help/list', q ? { q } : undefined);
}

export function useHelpList(q: string | undefined) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.help.list(i18n.language, q ?? ''),
    queryFn: () => getHelpList(q),
    // The previous results stay on screen while the next search runs (no flash of a skeleton).
    placeholderData: keepPreviousData,
  });
}
