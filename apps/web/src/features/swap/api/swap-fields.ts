import { ErrorCode } from '@coffer/contract/errors';
import type { FieldErrors } from '../../../lib/form-errors';
import { STEP_UP_ERROR_CODES } from '../../../lib/step-up';

/** Refusals of a quote or a swap shown under the amount (decision 021); others pop up. */
export const SWAP_AMOUNT_ERRORS: FieldErrors<'amount'> = {
  [ErrorCode.INSUFFICIENT_BALANCE]: 'amount',
  [ErrorCode.AMOUNT_OUT_OF_RANGE]: 'amount',
  [ErrorCode.LIMIT_EXCEEDED]: 'amount',
};

/** A swap's refusals: those of the amount, and an expired quote, said by the quote sheet's countdown. */
export const SWAP_APPLY_ERRORS: FieldErrors<'amount' | 'quote' | 'totp'> = {
  ...SWAP_AMOUNT_ERRORS,
  ...Object.fromEntries(STEP_UP_ERROR_CODES.map((code) => [code, 'totp' as const])),
  [ErrorCode.QUOTE_EXPIRED]: 'quote',
};
