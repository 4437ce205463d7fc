import type { ResetPasswordBody } from '@coffer/contract/auth';
import { ErrorCode } from '@coffer/contract/errors';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { type FieldErrors, fieldCodesOf } from '../../../lib/form-errors';

/** Refusals shown under a field of the reset form rather than popped up. */
export const RESET_FIELD_ERRORS: FieldErrors<'code'> = {
  [ErrorCode.WRONG_EMAIL_CODE]: 'code',
  [ErrorCode.TOO_MANY_WRONG_CODES]: 'code',
};

export function resetPassword(body: ResetPasswordBody): Promise<unknown> {
  return apiPost('/resetPassword', body, { fieldCodes: fieldCodesOf(RESET_FIELD_ERRORS) });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
