import type { AdminUserPage, adminUserQuery } from '@coffer/contract/admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet } from '../../../lib/api';

/** The query as the server reads it (numbers for paging). */
export type UserQuery = z.output<typeof adminUserQuery>;

/** GET /api/admin/users?q=&page=&pageSize= */
export const getUsers = (query: UserQuery) => apiGet<AdminUserPage>('/admin/users', { ...query });

export function useUsers(query: UserQuery) {
  return useQuery({ queryKey: ['console', 'users', query], queryFn: () => getUsers(query), placeholderData: keepPreviousData });
}
