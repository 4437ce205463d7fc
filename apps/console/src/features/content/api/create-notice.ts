import type { AdminNotice, NoticeInput } from '@coffer/contract/content';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/notices/create (uid null: public). */
export const createNotice = (body: NoticeInput) => apiPost<AdminNotice>('/admin/notices/create', body);
