import type { AdminUserDetail } from '@coffer/contract/admin';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/users/{uid} */
export const getUserDetail = (uid: number) => api.get<AdminUserDetail>(`/admin/users/${uid}`);

export const userDetailQuery = (uid: number) => queryOptions({ queryKey: queryKeys.user.detail(uid), queryFn: () => getUserDetail(uid) });

export function useUserDetail(uid: number) {
  return useQuery(userDetailQuery(uid));
}

/** Every write on a user answers the user's whole page: it replaces the one cached. */
export function storeUserDetail(queryClient: QueryClient, data: AdminUserDetail) {
  queryClient.setQueryData(queryKeys.user.detail(data.uid), data);
}
