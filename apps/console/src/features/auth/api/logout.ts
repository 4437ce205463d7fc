import { api } from '../../../lib/api';

/** POST /api/logout: ends this session on the server. */
export const logout = () => api.post<null>('/logout');
