import type { CurrentUser } from '@coffer/contract/auth';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import { tokenStore } from '../../../lib/session';

export const CURRENT_USER_KEY = ['console', 'current-user'] as const;

/** GET /api/getCurrentUser (its role decides whether the console opens). */
export const getCurrentUser = () => apiGet<CurrentUser>('/getCurrentUser');

export function useCurrentUser() {
  return useQuery({ queryKey: CURRENT_USER_KEY, queryFn: getCurrentUser, enabled: tokenStore.get() !== null, retry: false });
}
