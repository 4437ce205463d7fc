import { ErrorCode } from '@coffer/contract/errors';
import type { FieldErrors } from '../../../lib/form-errors';
import { RECIPIENT_FIELD_ERRORS } from './get-recipient';

/** Refusals of a transfer shown under the field they concern (issue 9 item 2); others pop up. */
export const TRANSFER_FIELD_ERRORS: FieldErrors<'recipient' | 'amount'> = {
  ...RECIPIENT_FIELD_ERRORS,
  [ErrorCode.INSUFFICIENT_BALANCE]: 'amount',
  [ErrorCode.AMOUNT_OUT_OF_RANGE]: 'amount',
  [ErrorCode.LIMIT_EXCEEDED]: 'amount',
};
