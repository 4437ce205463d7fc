import type { TransferByEmailBody, TransferResult } from '@coffer/contract/ledger';
import { apiPost } from '../../../lib/api-client';
import { fieldCodesOf } from '../../../lib/form-errors';
import { IDEMPOTENCY_HEADER } from '@coffer/api-client/idempotency';
import { TRANSFER_FIELD_ERRORS } from './transfer-fields';

/** POST /api/transfer/transferByEmail with the submit's Idempotency-Key. */
export function transferByEmail(body: TransferByEmailBody, idempotencyKey: string): Promise<TransferResult> {
  return apiPost<TransferResult>('/transfer/transferByEmail', body, {
    headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
    fieldCodes: fieldCodesOf(TRANSFER_FIELD_ERRORS),
  });
}
