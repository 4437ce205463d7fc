import type { AdminNotice } from '@coffer/contract/content';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';
import type { Retirement } from './retire-banner';

/** POST /api/admin/notices/{id}/retire */
export const retireNotice = ({ id, reason }: Retirement) => api.post<AdminNotice>(`/admin/notices/${id}/retire`, { reason });

export function useRetireNotice(ui?: WriteUi<Retirement, AdminNotice>) {
  return useWrite(retireNotice, { invalidate: [queryKeys.notices.all] }, ui);
}
