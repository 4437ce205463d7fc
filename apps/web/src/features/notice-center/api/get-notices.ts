import type { NoticePage } from '@coffer/contract/content';
import { PAGE_SIZE_DEFAULT } from '@coffer/contract/rules';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const NOTICE_PAGE_SIZE = PAGE_SIZE_DEFAULT;

/** GET /api/notice/list?page=&pageSize=: public and my own notices, newest first, with read state. */
export function getNotices(page: number): Promise<NoticePage> {
  return apiGet<NoticePage>('/notice/list', { page, pageSize: NOTICE_PAGE_SIZE });
}

export function useNotices() {
  const { i18n } = useTranslation();
  return useInfiniteQuery({
    queryKey: queryKeys.notices.list(i18n.language),
    queryFn: ({ pageParam }) => getNotices(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
    staleTime: 10_000,
  });
}
