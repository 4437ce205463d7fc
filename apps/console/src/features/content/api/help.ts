import type { AdminHelpTree } from '@coffer/contract/content';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/help: topics in order with their articles' titles. */
export const getHelpTree = () => api.get<AdminHelpTree>('/admin/help');

export const helpTreeQuery = () => queryOptions({ queryKey: queryKeys.help, queryFn: getHelpTree });

export function useHelpTree() {
  return useQuery(helpTreeQuery());
}
