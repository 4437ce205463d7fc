import type { AdminNoticePage, adminNoticeQuery } from '@coffer/contract/content';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export type NoticeQuery = z.output<typeof adminNoticeQuery>;

/** GET /api/admin/notices?page=&pageSize=&uid=&scope= */
export const getNotices = (query: NoticeQuery) => api.get<AdminNoticePage>('/admin/notices', { ...query });

export const noticesQuery = (query: NoticeQuery) =>
  queryOptions({ queryKey: queryKeys.notices.page(query), queryFn: () => getNotices(query), placeholderData: keepPreviousData });

export function useNotices(query: NoticeQuery) {
  return useQuery(noticesQuery(query));
}
