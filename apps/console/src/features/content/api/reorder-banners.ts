import type { AdminBannerList } from '@coffer/contract/content';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/banners/reorder: the named banners get sort orders 0, 1, 2... in this order. */
export const reorderBanners = (ids: number[]) => api.post<AdminBannerList>('/admin/banners/reorder', { ids });

export function useReorderBanners(ui?: WriteUi<number[], AdminBannerList>) {
  return useWrite(reorderBanners, { invalidate: [queryKeys.banners] }, ui);
}
