import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { clearSession } from '../../../lib/session';

export function logout(): Promise<unknown> {
  return apiPost('/logout');
}

/** Spec §4: signing out always clears local user info, even when the server call fails. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      clearSession();
      queryClient.clear();
    },
  });
}
