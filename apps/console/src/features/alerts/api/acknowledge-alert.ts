import type { OperatorAlert } from '@coffer/contract/alerts';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

export interface Acknowledgement {
  id: number;
  reason: string;
}

/** POST /api/admin/alerts/{id}/acknowledge with the reason (audited); the alert stays open. */
export const acknowledgeAlert = ({ id, reason }: Acknowledgement) => api.post<OperatorAlert>(`/admin/alerts/${id}/acknowledge`, { reason });

export function useAcknowledgeAlert(ui?: WriteUi<Acknowledgement, OperatorAlert>) {
  return useWrite(acknowledgeAlert, { invalidate: [queryKeys.alerts] }, ui);
}
