import { ErrorCode } from '@coffer/contract/errors';
import type { FieldErrors } from '../../../lib/form-errors';
import { STEP_UP_ERROR_CODES } from '../../../lib/step-up';
import { RECIPIENT_FIELD_ERRORS } from './get-recipient';

/** Refusals of a transfer shown under the field they concern; others pop up. */
export const TRANSFER_FIELD_ERRORS: FieldErrors<'recipient' | 'amount' | 'totp'> = {
  ...RECIPIENT_FIELD_ERRORS,
  ...Object.fromEntries(STEP_UP_ERROR_CODES.map((code) => [code, 'totp' as const])),
  [ErrorCode.INSUFFICIENT_BALANCE]: 'amount',
  [ErrorCode.AMOUNT_OUT_OF_RANGE]: 'amount',
  [ErrorCode.LIMIT_EXCEEDED]: 'amount',
};
