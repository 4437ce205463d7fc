import type { LoginBody } from '@coffer/contract/auth';
import type { LoginAnswer } from '@coffer/contract/two-factor';
import { ErrorCode } from '@coffer/contract/errors';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { type FieldErrors, fieldCodesOf } from '../../../lib/form-errors';

/** Refusals shown under a field of the sign-in form rather than popped up. */
export const LOGIN_FIELD_ERRORS: FieldErrors<'password'> = { [ErrorCode.WRONG_CREDENTIALS]: 'password' };

/**
 * The HTTP layer stores tokenHead + token from the reply. With two-factor on, the reply is a
 * challenge for the second step instead (no session yet).
 */
export function login(body: LoginBody): Promise<LoginAnswer> {
  return apiPost<LoginAnswer>('/login', body, { fieldCodes: fieldCodesOf(LOGIN_FIELD_ERRORS) });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
