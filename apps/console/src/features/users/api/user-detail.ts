import type { AdminUserDetail } from '@coffer/contract/admin';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const userDetailKey = (uid: number) => ['console', 'user', uid] as const;

/** GET /api/admin/users/{uid} */
export const getUserDetail = (uid: number) => apiGet<AdminUserDetail>(`/admin/users/${uid}`);

export function useUserDetail(uid: number) {
  return useQuery({ queryKey: userDetailKey(uid), queryFn: () => getUserDetail(uid) });
}
