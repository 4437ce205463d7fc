import type { AdminBannerList } from '@coffer/contract/content';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/banners: every banner in display order, retired last. */
export const getBanners = () => api.get<AdminBannerList>('/admin/banners');

export const bannersQuery = () => queryOptions({ queryKey: queryKeys.banners, queryFn: getBanners });

export function useBanners() {
  return useQuery(bannersQuery());
}
