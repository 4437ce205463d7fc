import type { BannerDetail } from '@coffer/contract/content';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/banner/details/{id} (public): the banner with its body as server-sanitised html; 4004 once it is gone. */
export function getBanner(id: number): Promise<BannerDetail> {
  return apiGet<BannerDetail>(`/banner/details/${id}`);
}

export function useBanner(id: number | null) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.banners.detail(id, i18n.language),
    queryFn: () => getBanner(id!),
    enabled: id !== null,
  });
}
