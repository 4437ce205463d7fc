import type { AdminBannerList, BannerReorderBody } from '@coffer/contract/content';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/banners/reorder: the named banners get sort orders 0, 1, 2... in this order. */
export const reorderBanners = (body: BannerReorderBody) => apiPost<AdminBannerList>('/admin/banners/reorder', body);
