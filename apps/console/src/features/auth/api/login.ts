import type { LoginBody } from '@coffer/contract/auth';
import type { LoginAnswer } from '@coffer/contract/two-factor';
import { apiPost } from '../../../lib/api';

/** POST /api/login: a session, or a challenge for the second factor. */
export const login = (body: LoginBody) => apiPost<LoginAnswer>('/login', body);
