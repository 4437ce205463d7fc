import type { LoginData } from '@coffer/contract/auth';
import type {
  LoginSecondFactorBody,
  TwoFactorDisableBody,
  TwoFactorEnableBody,
  TwoFactorEnableData,
  TwoFactorSetupData,
} from '@coffer/contract/two-factor';
import { apiPost } from '../../../lib/api-client';

export const setupTwoFactor = () => apiPost<TwoFactorSetupData>('/2fa/setup');
export const enableTwoFactor = (body: TwoFactorEnableBody) => apiPost<TwoFactorEnableData>('/2fa/enable', body);
export const disableTwoFactor = (body: TwoFactorDisableBody) => apiPost<null>('/2fa/disable', body);
/** The HTTP layer stores the session token from the reply, as for /login. */
export const loginSecondFactor = (body: LoginSecondFactorBody) => apiPost<LoginData>('/login/2fa', body);
