import type { ResetPasswordBody } from '@coffer/contract/auth';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

export function resetPassword(body: ResetPasswordBody): Promise<unknown> {
  return apiPost('/resetPassword', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
