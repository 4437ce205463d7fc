import type { AdminBanner, BannerInput } from '@coffer/contract/content';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/banners/create, or /{id}/update with the whole banner. */
export const saveBanner = (id: number | null, body: BannerInput) =>
  apiPost<AdminBanner>(id === null ? '/admin/banners/create' : `/admin/banners/${id}/update`, body);
