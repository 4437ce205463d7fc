import { apiPost } from '../../../lib/api';

/** POST /api/logout: ends this session on the server. */
export const logout = () => apiPost<null>('/logout');
