import type { BannerList } from '@coffer/contract/content';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/banner/list (public): the live banners in order, titled in the request's language. */
export function getBanners(): Promise<BannerList> {
  return apiGet<BannerList>('/banner/list');
}

export function useBanners() {
  const { i18n } = useTranslation();
  return useQuery({ queryKey: queryKeys.banners.list(i18n.language), queryFn: getBanners });
}
