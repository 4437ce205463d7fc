import type { ContentReasonBody, DeletedData } from '@coffer/contract/content';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/help/articles/{id}/delete */
export const deleteHelpArticle = (id: number, body: ContentReasonBody) => apiPost<DeletedData>(`/admin/help/articles/${id}/delete`, body);
