import type { NetworkUpdateBody, NetworkUpdateData } from '@coffer/contract/network-admin';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/networks/{id}: only the settings named change (changed: false when already so). */
export const updateNetwork = (id: number, body: NetworkUpdateBody) => apiPost<NetworkUpdateData>(`/admin/networks/${id}`, body);
