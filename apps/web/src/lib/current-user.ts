import { ErrorCode } from '@coffer/contract/errors';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { type UserInfo, useUserStore } from '../stores/user';
import { apiGet } from './api-client';
import { isApiError } from '@coffer/api-client/api-error';
import { queryKeys } from './query-keys';

/*
 * GET /api/getCurrentUser. Shared (like bulletproof-react's lib/auth) because the guard,
 * the auth pages, home and profile all need the signed-in user.
 */

export function getCurrentUser(): Promise<UserInfo> {
  return apiGet<UserInfo>('/getCurrentUser');
}

export function getCurrentUserQueryOptions() {
  return queryOptions({ queryKey: queryKeys.currentUser, queryFn: getCurrentUser });
}

/** The guard has just fetched the user, so the stored copy seeds the query. */
export function useCurrentUser() {
  const stored = useUserStore((state) => state.user);
  return useQuery({ ...getCurrentUserQueryOptions(), initialData: stored ?? undefined });
}

/** Fetches the user now (after sign-in, or when a page needs it) and keeps it in the store. */
export async function refreshCurrentUser(queryClient: QueryClient): Promise<UserInfo> {
  // networkMode 'always': offline, TanStack's default ('online') pauses the fetch instead of
  // failing it, and the route guard awaiting it would hold the navigation forever (no page, no
  // Retry). Failing at once lets the route's error block offer Retry inside the frame.
  const user = await queryClient.fetchQuery({ ...getCurrentUserQueryOptions(), staleTime: 0, networkMode: 'always' });
  useUserStore.getState().setUser(user);
  return user;
}

/** The server's answer that the session is gone (code 2001): the guard signs the user out. */
export function isNotSignedIn(error: unknown): boolean {
  return isApiError(error, ErrorCode.NOT_SIGNED_IN);
}
