import type { AdminBannerList } from '@coffer/contract/content';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const BANNERS_KEY = ['console', 'banners'] as const;

/** GET /api/admin/banners: every banner in display order, retired last. */
export const getBanners = () => apiGet<AdminBannerList>('/admin/banners');

export function useBanners() {
  return useQuery({ queryKey: BANNERS_KEY, queryFn: getBanners });
}
