import type { DeletedData } from '@coffer/contract/content';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

export interface HelpDeletion {
  id: number;
  reason: string;
}

/** POST /api/admin/help/topics/{id}/delete */
export const deleteHelpTopic = ({ id, reason }: HelpDeletion) => api.post<DeletedData>(`/admin/help/topics/${id}/delete`, { reason });

export function useDeleteHelpTopic(ui?: WriteUi<HelpDeletion, DeletedData>) {
  return useWrite(deleteHelpTopic, { invalidate: [queryKeys.help] }, ui);
}
