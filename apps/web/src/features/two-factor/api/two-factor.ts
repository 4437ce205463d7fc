import type { TwoFactorDisableBody, TwoFactorEnableBody, TwoFactorEnableData, TwoFactorSetupData } from '@coffer/contract/two-factor';
import type { StepUpSwapsBody } from '@coffer/contract/step-up';
import { apiPost } from '../../../lib/api-client';

export const setupTwoFactor = () => apiPost<TwoFactorSetupData>('/2fa/setup');
export const enableTwoFactor = (body: TwoFactorEnableBody) => apiPost<TwoFactorEnableData>('/2fa/enable', body);
export const disableTwoFactor = (body: TwoFactorDisableBody) => apiPost<null>('/2fa/disable', body);
/** Whether swaps ask for the second factor too; turning it off needs a code (decision 033). */
export const setStepUpSwaps = (body: StepUpSwapsBody) => apiPost<null>('/2fa/swaps', body);
