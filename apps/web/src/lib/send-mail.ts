import type { SendMailQuery } from '@coffer/contract/auth';
import { useMutation } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export function sendMail(query: SendMailQuery): Promise<unknown> {
  return apiGet('/sendMail', query);
}

export function useSendMail() {
  return useMutation({ mutationFn: sendMail });
}
