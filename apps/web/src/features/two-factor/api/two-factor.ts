import type { TwoFactorDisableBody, TwoFactorEnableBody, TwoFactorEnableData, TwoFactorSetupData } from '@coffer/contract/two-factor';
import { apiPost } from '../../../lib/api-client';

export const setupTwoFactor = () => apiPost<TwoFactorSetupData>('/2fa/setup');
export const enableTwoFactor = (body: TwoFactorEnableBody) => apiPost<TwoFactorEnableData>('/2fa/enable', body);
export const disableTwoFactor = (body: TwoFactorDisableBody) => apiPost<null>('/2fa/disable', body);
