import type { NoticeDetail } from '@coffer/contract/content';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/notice/{id}: the notice with its html; the server marks it read (4004 for another user's). */
export function getNotice(id: number): Promise<NoticeDetail> {
  return apiGet<NoticeDetail>(`/notice/${id}`);
}

/** Opening a notice reads it: the list's dot and the unread badge follow. */
export function useNotice(id: number | null) {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.notices.detail(id, i18n.language),
    queryFn: async () => {
      const notice = await getNotice(id!);
      void queryClient.invalidateQueries({ queryKey: queryKeys.notices.unreadCount });
      void queryClient.invalidateQueries({ queryKey: queryKeys.notices.lists });
      return notice;
    },
    enabled: id !== null,
  });
}
