import type { UpdateUserInfoBody } from '@coffer/contract/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { type UserInfo, useUserStore } from '../../../stores/user';
import { queryKeys } from '../../../lib/query-keys';

export function updateUserInfo(body: UpdateUserInfoBody): Promise<UserInfo | null> {
  return apiPost<UserInfo | null>('/updateUserInfo', body);
}

export function useUpdateUserInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserInfo,
    onSuccess: (returned, body) => {
      // The server may answer with the updated user or with null; merge the body either way.
      const previous = queryClient.getQueryData<UserInfo>(queryKeys.currentUser) ?? useUserStore.getState().user;
      if (!previous) return;
      const next: UserInfo = { ...previous, ...(returned ?? {}), ...body };
      queryClient.setQueryData(queryKeys.currentUser, next);
      useUserStore.getState().setUser(next);
    },
  });
}
