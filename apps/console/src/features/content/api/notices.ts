import type { AdminNoticePage, adminNoticeQuery } from '@coffer/contract/content';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet } from '../../../lib/api';

export type NoticeQuery = z.output<typeof adminNoticeQuery>;
export const NOTICES_KEY = ['console', 'notices'] as const;

/** GET /api/admin/notices?page=&pageSize=&uid=&scope= */
export const getNotices = (query: NoticeQuery) => apiGet<AdminNoticePage>('/admin/notices', { ...query });

export function useNotices(query: NoticeQuery) {
  return useQuery({ queryKey: [...NOTICES_KEY, query], queryFn: () => getNotices(query), placeholderData: keepPreviousData });
}
