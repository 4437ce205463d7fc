import type { LoginData } from '@coffer/contract/auth';
import type { LoginSecondFactorBody } from '@coffer/contract/two-factor';
import { api } from '../../../lib/api';

/** POST /api/login/2fa: the authenticator (or recovery) code for the challenge. */
export const loginSecondFactor = (body: LoginSecondFactorBody) => api.post<LoginData>('/login/2fa', body);
