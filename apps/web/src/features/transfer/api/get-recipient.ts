import type { Recipient, RecipientQuery } from '@coffer/contract/ledger';
import { useMutation } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** GET /api/transfer/recipient?email= or ?uid=: who would receive, before confirming (3004, 3005). */
export function getRecipient(query: RecipientQuery): Promise<Recipient> {
  return apiGet<Recipient>('/transfer/recipient', { ...query });
}

/** A mutation, not a query: the preview runs when the user asks for it, never from a cache. */
export function useRecipientPreview() {
  return useMutation({ mutationFn: getRecipient });
}
