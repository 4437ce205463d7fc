import type { AdminNotice, NoticeInput } from '@coffer/contract/content';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/notices/create (uid null: public). */
export const createNotice = (body: NoticeInput) => api.post<AdminNotice>('/admin/notices/create', body);

export function useCreateNotice(ui?: WriteUi<NoticeInput, AdminNotice>) {
  return useWrite(createNotice, { invalidate: [queryKeys.notices.all] }, ui);
}
