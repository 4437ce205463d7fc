import type { DeletedData } from '@coffer/contract/content';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';
import type { HelpDeletion } from './delete-help-topic';

/** POST /api/admin/help/articles/{id}/delete */
export const deleteHelpArticle = ({ id, reason }: HelpDeletion) => api.post<DeletedData>(`/admin/help/articles/${id}/delete`, { reason });

export function useDeleteHelpArticle(ui?: WriteUi<HelpDeletion, DeletedData>) {
  return useWrite(deleteHelpArticle, { invalidate: [queryKeys.help] }, ui);
}
