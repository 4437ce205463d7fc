import type {
  AntiPhishingData,
  RevokeOthersData,
  SecuritySessionList,
  SignInPage,
  SignInsBody,
  TwoFactorResetData,
} from '@coffer/contract/security';
import { ErrorCode } from '@coffer/contract/errors';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api-client';
import { type FieldErrors, fieldCodesOf } from '../../../lib/form-errors';
import { queryKeys } from '../../../lib/query-keys';

export const getSessions = () => apiGet<SecuritySessionList>('/security/sessions');
export const revokeSession = (id: number) => apiPost<null>(`/security/sessions/${id}/revoke`);
export const revokeOtherSessions = () => apiPost<RevokeOthersData>('/security/sessions/revokeOthers');
export const getSignIns = (body: SignInsBody) => apiPost<SignInPage>('/security/signins', body);
export const getAntiPhishing = () => apiGet<AntiPhishingData>('/security/antiPhishing');
export const setAntiPhishing = (phrase: string) => apiPost<AntiPhishingData>('/security/antiPhishing', { phrase });

/** An operator-assisted two-factor reset waiting for its time (the owner may cancel it). */
export const getTwoFactorReset = () => apiGet<TwoFactorResetData>('/2fa/reset');
/** The owner's cancel needs the authenticator or a recovery code (a stolen session alone cannot keep them locked out). */
/** A wrong code is written under the reset-cancel field, not popped up. */
export const RESET_CANCEL_FIELD_ERRORS: FieldErrors<'code'> = { [ErrorCode.WRONG_SECOND_FACTOR]: 'code' };
export const cancelTwoFactorReset = (code: string) =>
  apiPost<null>('/2fa/reset/cancel', { code }, { fieldCodes: fieldCodesOf(RESET_CANCEL_FIELD_ERRORS) });

export function useTwoFactorReset() {
  return useQuery({ queryKey: queryKeys.security.twoFactorReset, queryFn: getTwoFactorReset, staleTime: 0 });
}

export function useCancelTwoFactorReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelTwoFactorReset,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.security.twoFactorReset }),
  });
}

export function useSessions() {
  return useQuery({ queryKey: queryKeys.security.sessions, queryFn: getSessions, staleTime: 0 });
}

export function useSignIns(pageSize: number) {
  return useQuery({
    queryKey: queryKeys.security.signIns(pageSize),
    queryFn: () => getSignIns({ page: 1, pageSize }),
    staleTime: 0,
  });
}

export function useAntiPhishing() {
  return useQuery({ queryKey: queryKeys.security.antiPhishing, queryFn: getAntiPhishing });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number | 'others') => (id === 'others' ? revokeOtherSessions() : revokeSession(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.security.sessions }),
  });
}

export function useSetAntiPhishing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAntiPhishing,
    onSuccess: (data) => queryClient.setQueryData(queryKeys.security.antiPhishing, data),
  });
}
