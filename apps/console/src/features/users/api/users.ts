import type { AdminUserPage, adminUserQuery } from '@coffer/contract/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** The query as the server reads it (numbers for paging). */
export type UserQuery = z.output<typeof adminUserQuery>;

/** GET /api/admin/users?q=&page=&pageSize= */
export const getUsers = (query: UserQuery) => api.get<AdminUserPage>('/admin/users', { ...query });

export const usersQuery = (query: UserQuery) =>
  queryOptions({ queryKey: queryKeys.users.page(query), queryFn: () => getUsers(query), placeholderData: keepPreviousData });

export function useUsers(query: UserQuery) {
  return useQuery(usersQuery(query));
}
