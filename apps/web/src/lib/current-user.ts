import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { type UserInfo, useUserStore } from '../../../stores/user';

export const currentUserQueryKey = ['current-user'] as const;

export function getCurrentUser(): Promise<UserInfo> {
  return apiGet<UserInfo>('/getCurrentUser');
}

export function getCurrentUserQueryOptions() {
  return queryOptions({ queryKey: currentUserQueryKey, queryFn: getCurrentUser });
}

/** The guard has just fetched the user, so the stored copy seeds the query. */
export function useCurrentUser() {
  const stored = useUserStore((state) => state.user);
  return useQuery({ ...getCurrentUserQueryOptions(), initialData: stored ?? undefined });
}
