import type { CurrentUser } from '@coffer/contract/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { tokenStore } from '../../../lib/session';

/** GET /api/getCurrentUser (its role decides whether the console opens). */
export const getCurrentUser = () => api.get<CurrentUser>('/getCurrentUser');

export const currentUserQuery = () =>
  queryOptions({ queryKey: queryKeys.currentUser, queryFn: getCurrentUser, enabled: tokenStore.get() !== null, retry: false });

export function useCurrentUser() {
  return useQuery(currentUserQuery());
}
