import type { SendMailQuery } from '@coffer/contract/auth';
import { useMutation } from '@tanstack/react-query';
import { apiGet } from './api-client';

/* GET /api/sendMail?email=&type=: the code for sign-up, reset and withdrawals. */

export function sendMail(query: SendMailQuery): Promise<unknown> {
  return apiGet('/sendMail', query);
}

export function useSendMail() {
  return useMutation({ mutationFn: sendMail });
}
