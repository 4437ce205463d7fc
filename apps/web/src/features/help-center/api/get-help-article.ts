import type { HelpArticle } from '@coffer/contract/content';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/help/{id}: one article, its body as server-sanitised html. */
export function getHelpArticle(id: number): Promise<HelpArticle> {
  return apiGet<HelpArticle>(`/help/${id}`);
}

export function useHelpArticle(id: number | null) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.help.article(id, i18n.language),
    queryFn: () => getHelpArticle(id!),
    enabled: id !== null,
  });
}
