import type { RegisterBody } from '@coffer/contract/auth';
import { ErrorCode } from '@coffer/contract/errors';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { type FieldErrors, fieldCodesOf } from '../../../lib/form-errors';

/** Refusals shown under a field of the sign-up form rather than popped up. */
export const REGISTER_FIELD_ERRORS: FieldErrors<'email' | 'code'> = {
  [ErrorCode.EMAIL_TAKEN]: 'email',
  [ErrorCode.WRONG_EMAIL_CODE]: 'code',
  [ErrorCode.TOO_MANY_WRONG_CODES]: 'code',
};

/** The reply may sign the user in at once (data.token), which the HTTP layer stores. */
export function register(body: RegisterBody): Promise<{ token?: string; tokenHead?: string } | null> {
  return apiPost('/register', body, { fieldCodes: fieldCodesOf(REGISTER_FIELD_ERRORS) });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
