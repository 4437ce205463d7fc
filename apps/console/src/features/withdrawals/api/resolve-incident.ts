import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';
import type { ChainIncident } from './incidents';

export interface Resolution {
  id: number;
  resolution: string;
}

/** POST /api/admin/chain/incidents/{id}/resolve: lifts its payout freeze. */
export const resolveIncident = ({ id, resolution }: Resolution) =>
  api.post<ChainIncident>(`/admin/chain/incidents/${id}/resolve`, { resolution });

export function useResolveIncident(ui?: WriteUi<Resolution, ChainIncident>) {
  return useWrite(resolveIncident, { invalidate: [queryKeys.incidents.all] }, ui);
}
