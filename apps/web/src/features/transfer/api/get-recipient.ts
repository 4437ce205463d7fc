import type { Recipient, RecipientQuery } from '@coffer/contract/ledger';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/transfer/recipient?email= or ?uid=: who would receive, before confirming
 * (3004, 3005). Never cached: the transfer page calls it as the user types (debounced),
 * aborting the previous lookup when the text changes.
 */
export function getRecipient(query: RecipientQuery, signal?: AbortSignal): Promise<Recipient> {
  return apiGet<Recipient>('/transfer/recipient', { ...query }, { signal });
}
