import type { ContentReasonBody, DeletedData } from '@coffer/contract/content';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/help/topics/{id}/delete */
export const deleteHelpTopic = (id: number, body: ContentReasonBody) => apiPost<DeletedData>(`/admin/help/topics/${id}/delete`, body);
