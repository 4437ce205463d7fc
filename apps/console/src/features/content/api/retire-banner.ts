import type { AdminBanner } from '@coffer/contract/content';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

export interface Retirement {
  id: number;
  reason: string;
}

/** POST /api/admin/banners/{id}/retire */
export const retireBanner = ({ id, reason }: Retirement) => api.post<AdminBanner>(`/admin/banners/${id}/retire`, { reason });

export function useRetireBanner(ui?: WriteUi<Retirement, AdminBanner>) {
  return useWrite(retireBanner, { invalidate: [queryKeys.banners] }, ui);
}
