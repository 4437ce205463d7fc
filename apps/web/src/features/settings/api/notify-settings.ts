import type { NotifySettings } from '@coffer/contract/notify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET/POST /api/user/notify-settings: the mail toggles per category (docs/decisions/054). */
export function useNotifySettings() {
  return useQuery({ queryKey: queryKeys.notifySettings, queryFn: () => apiGet<NotifySettings>('/user/notify-settings') });
}

export function useSetNotifySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<NotifySettings>) => apiPost<NotifySettings>('/user/notify-settings', body),
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.notifySettings, settings),
  });
}
