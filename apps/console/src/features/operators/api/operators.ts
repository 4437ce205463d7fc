import type { OperatorItem } from '@coffer/contract/admin';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const OPERATORS_KEY = ['console', 'operators'] as const;

/** GET /api/admin/operators */
export const getOperators = () => apiGet<OperatorItem[]>('/admin/operators');

export function useOperators() {
  return useQuery({ queryKey: OPERATORS_KEY, queryFn: getOperators });
}
