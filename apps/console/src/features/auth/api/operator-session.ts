import type { OperatorSessionData } from '@coffer/contract/admin';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import { tokenStore } from '../../../lib/session';

export const OPERATOR_SESSION_KEY = ['console', 'operator-session'] as const;

/** GET /api/operator/session: roles, whether a second factor is enrolled and passed, the idle limit. */
export const getOperatorSession = () => apiGet<OperatorSessionData>('/operator/session');

export function useOperatorSession(enabled = true) {
  return useQuery({
    queryKey: OPERATOR_SESSION_KEY,
    queryFn: getOperatorSession,
    enabled: enabled && tokenStore.get() !== null,
    retry: false,
  });
}
