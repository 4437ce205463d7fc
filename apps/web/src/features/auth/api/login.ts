import type { LoginBody } from '@coffer/contract/auth';
import type { LoginAnswer } from '@coffer/contract/two-factor';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

/**
 * The HTTP layer stores tokenHead + token from the reply. With two-factor on, the reply is a
 * challenge for the second step instead (no session yet).
 */
export function login(body: LoginBody): Promise<LoginAnswer> {
  return apiPost<LoginAnswer>('/login', body);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
