import type { NetworkUpdateBody, NetworkUpdateData } from '@coffer/contract/network-admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/networks/{id}: only the settings named change (changed: false when already so). */
export const updateNetwork = (id: number, body: NetworkUpdateBody) => api.post<NetworkUpdateData>(`/admin/networks/${id}`, body);

export function useUpdateNetwork(id: number, ui?: WriteUi<NetworkUpdateBody, NetworkUpdateData>) {
  return useWrite((body: NetworkUpdateBody) => updateNetwork(id, body), { invalidate: [queryKeys.networks] }, ui);
}
