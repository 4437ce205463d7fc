import { ErrorCode } from '@coffer/contract/errors';
import type { Recipient, RecipientQuery } from '@coffer/contract/ledger';
import { apiGet } from '../../../lib/api-client';
import { type FieldErrors, fieldCodesOf } from '../../../lib/form-errors';

/** Refusals of a lookup or a transfer that concern the recipient: shown under its field, not popped up. */
export const RECIPIENT_FIELD_ERRORS: FieldErrors<'recipient'> = {
  [ErrorCode.RECIPIENT_NOT_FOUND]: 'recipient',
  [ErrorCode.CANNOT_SEND_TO_SELF]: 'recipient',
};

/**
 * GET /api/transfer/recipient?email= or ?uid=: who would receive, before confirming
 * (3004, 3005, shown under the field). Never cached: the transfer page calls it as the user
 * types (debounced), aborting the previous lookup when the text changes.
 */
export function getRecipient(query: RecipientQuery, signal?: AbortSignal): Promise<Recipient> {
  return apiGet<Recipient>('/transfer/recipient', { ...query }, { signal, fieldCodes: fieldCodesOf(RECIPIENT_FIELD_ERRORS) });
}
