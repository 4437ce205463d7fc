import type { ReadAllData } from '@coffer/contract/content';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/notice/read-all: every notice I can see becomes read. */
export function readAllNotices(): Promise<ReadAllData> {
  return apiPost<ReadAllData>('/notice/read-all');
}

export function useReadAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: readAllNotices,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.notices.unreadCount }),
        queryClient.invalidateQueries({ queryKey: queryKeys.notices.lists }),
      ]);
    },
  });
}
