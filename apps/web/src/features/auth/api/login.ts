import type { LoginBody, LoginData } from '@coffer/contract/auth';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

/** The HTTP layer stores tokenHead + token from the reply. */
export function login(body: LoginBody): Promise<LoginData> {
  return apiPost<LoginData>('/login', body);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
