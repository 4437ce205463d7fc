import type { UnreadCountData } from '@coffer/contract/content';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from './api-client';
import { queryKeys } from './query-keys';

/*
 * GET /api/notice/unread-count. Shared because the profile page shows the badge and the
 * notice center updates it (opening a notice, "all read").
 */

export function getUnreadCount(): Promise<UnreadCountData> {
  return apiGet<UnreadCountData>('/notice/unread-count');
}

export function useUnreadCount(enabled = true) {
  return useQuery({ queryKey: queryKeys.notices.unreadCount, queryFn: getUnreadCount, enabled, staleTime: 10_000 });
}
