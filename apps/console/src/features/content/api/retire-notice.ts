import type { AdminNotice, ContentReasonBody } from '@coffer/contract/content';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/notices/{id}/retire */
export const retireNotice = (id: number, body: ContentReasonBody) => apiPost<AdminNotice>(`/admin/notices/${id}/retire`, body);
