import type { AdminHelpTree } from '@coffer/contract/content';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const HELP_KEY = ['console', 'help'] as const;

/** GET /api/admin/help: topics in order with their articles' titles. */
export const getHelpTree = () => apiGet<AdminHelpTree>('/admin/help');

export function useHelpTree() {
  return useQuery({ queryKey: HELP_KEY, queryFn: getHelpTree });
}
