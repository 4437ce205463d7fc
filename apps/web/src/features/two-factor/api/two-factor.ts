import type { TwoFactorDisableBody, TwoFactorEnableBody, TwoFactorEnableData, TwoFactorSetupData } from '@coffer/contract/two-factor';
import type { StepUpSwapsBody } from '@coffer/contract/step-up';
import { ErrorCode } from '@coffer/contract/errors';
import { apiPost } from '../../../lib/api-client';
import { type FieldErrors, fieldCodesOf } from '../../../lib/form-errors';

/** Refusals written under the code or password field of the page, not popped up. */
export const ENABLE_FIELD_ERRORS: FieldErrors<'code' | 'password'> = {
  [ErrorCode.WRONG_SECOND_FACTOR]: 'code',
  [ErrorCode.WRONG_CREDENTIALS]: 'password',
};
export const DISABLE_FIELD_ERRORS: FieldErrors<'code'> = { [ErrorCode.WRONG_SECOND_FACTOR]: 'code' };
/** Turning swap step-up off: a wrong code goes under its field like the page's other code fields. */
export const SWAPS_FIELD_ERRORS: FieldErrors<'code'> = { [ErrorCode.WRONG_SECOND_FACTOR]: 'code' };

export const setupTwoFactor = () => apiPost<TwoFactorSetupData>('/2fa/setup');
export const enableTwoFactor = (body: TwoFactorEnableBody) =>
  apiPost<TwoFactorEnableData>('/2fa/enable', body, { fieldCodes: fieldCodesOf(ENABLE_FIELD_ERRORS) });
export const disableTwoFactor = (body: TwoFactorDisableBody) =>
  apiPost<null>('/2fa/disable', body, { fieldCodes: fieldCodesOf(DISABLE_FIELD_ERRORS) });
/** Whether swaps ask for the second factor too; turning it off needs a code (decision 033). */
export const setStepUpSwaps = (body: StepUpSwapsBody) =>
  apiPost<null>('/2fa/swaps', body, { fieldCodes: fieldCodesOf(SWAPS_FIELD_ERRORS) });
