import type { OperatorSessionData } from '@coffer/contract/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { tokenStore } from '../../../lib/session';

/** GET /api/operator/session: roles, whether a second factor is enrolled and passed, the idle limit. */
export const getOperatorSession = () => api.get<OperatorSessionData>('/operator/session');

export const operatorSessionQuery = (enabled = true) =>
  queryOptions({
    queryKey: queryKeys.operatorSession,
    queryFn: getOperatorSession,
    enabled: enabled && tokenStore.get() !== null,
    retry: false,
  });

export function useOperatorSession(enabled = true) {
  return useQuery(operatorSessionQuery(enabled));
}
