import type { OperatorItem } from '@coffer/contract/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/operators */
export const getOperators = () => api.get<OperatorItem[]>('/admin/operators');

export const operatorsQuery = () => queryOptions({ queryKey: queryKeys.operators, queryFn: getOperators });

export function useOperators() {
  return useQuery(operatorsQuery());
}
