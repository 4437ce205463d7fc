import { ErrorCode } from '@coffer/contract/errors';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@coffer/api-client/api-error';
import { type FieldErrors, fieldCodesOf, fieldErrorOf } from './form-errors';

const FIELDS: FieldErrors<'amount' | 'recipient'> = {
  [ErrorCode.INSUFFICIENT_BALANCE]: 'amount',
  [ErrorCode.RECIPIENT_NOT_FOUND]: 'recipient',
};

describe('form errors', () => {
  it('lists the codes a form shows next to a field', () => {
    expect(fieldCodesOf(FIELDS).sort()).toEqual([ErrorCode.INSUFFICIENT_BALANCE, ErrorCode.RECIPIENT_NOT_FOUND]);
  });

  it('gives the field and the server message of a refusal that has one', () => {
    expect(fieldErrorOf(new ApiError(ErrorCode.RECIPIENT_NOT_FOUND, 'nobody', null), FIELDS)).toEqual({
      field: 'recipient',
      message: 'nobody',
    });
  });

  it('gives nothing for a refusal without a field, or for a transport failure', () => {
    expect(fieldErrorOf(new ApiError(ErrorCode.CURRENCY_UNAVAILABLE, 'off', null), FIELDS)).toBeNull();
    expect(fieldErrorOf(new Error('network'), FIELDS)).toBeNull();
  });
});
