import type { SecurityHoldData } from '@coffer/contract/holds';
import { ErrorCode } from '@coffer/contract/errors';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/security/hold: the withdrawal hold in force after a credential change, or null. */
export function useSecurityHold() {
  return useQuery({
    queryKey: queryKeys.security.hold,
    queryFn: () => apiGet<SecurityHoldData>('/security/hold'),
    staleTime: 0,
  });
}

/** POST /api/security/hold/cancel/:id with an authenticator or recovery code; a wrong code is shown under the field. */
export function useCancelHold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, code }: { id: number; code: string }) =>
      apiPost<SecurityHoldData>(`/security/hold/cancel/${id}`, { code }, { fieldCodes: [ErrorCode.WRONG_SECOND_FACTOR] }),
    onSuccess: (data) => queryClient.setQueryData(queryKeys.security.hold, data),
  });
}
