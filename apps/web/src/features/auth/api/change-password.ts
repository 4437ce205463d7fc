import type { ChangePasswordBody, ChangePasswordData } from '@coffer/contract/security';
import { ErrorCode } from '@coffer/contract/errors';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { type FieldErrors, fieldCodesOf } from '../../../lib/form-errors';
import { queryKeys } from '../../../lib/query-keys';

/** Refusals shown under a field of the change-password form rather than popped up. */
export const CHANGE_PASSWORD_FIELD_ERRORS: FieldErrors<'currentPassword' | 'code'> = {
  [ErrorCode.WRONG_CURRENT_PASSWORD]: 'currentPassword',
  [ErrorCode.SECOND_FACTOR_REQUIRED]: 'code',
  [ErrorCode.WRONG_SECOND_FACTOR]: 'code',
};

export function changePassword(body: ChangePasswordBody): Promise<ChangePasswordData> {
  return apiPost<ChangePasswordData>('/security/changePassword', body, { fieldCodes: fieldCodesOf(CHANGE_PASSWORD_FIELD_ERRORS) });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // Other devices may have been signed out: the security centre's list is stale.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.security.sessions }),
  });
}
