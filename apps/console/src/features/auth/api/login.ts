import type { LoginBody } from '@coffer/contract/auth';
import type { LoginAnswer } from '@coffer/contract/two-factor';
import { api } from '../../../lib/api';

/** POST /api/login: a session, or a challenge for the second factor (the sign-in page's steps, auth/session.ts). */
export const login = (body: LoginBody) => api.post<LoginAnswer>('/login', body);
