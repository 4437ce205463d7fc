import type { ReadAllData } from '@coffer/contract/content';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { unreadCountQueryKey } from '../../../lib/notice-unread';
import { noticesQueryKey } from './get-notices';

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
        queryClient.invalidateQueries({ queryKey: unreadCountQueryKey }),
        queryClient.invalidateQueries({ queryKey: noticesQueryKey }),
      ]);
    },
  });
}
