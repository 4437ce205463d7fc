import type { RegisterBody } from '@coffer/contract/auth';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

/** The reply may sign the user in at once (data.token), which the HTTP layer stores. */
export function register(body: RegisterBody): Promise<{ token?: string; tokenHead?: string } | null> {
  return apiPost('/register', body);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
