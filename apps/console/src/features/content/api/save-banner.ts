import type { AdminBanner, BannerInput } from '@coffer/contract/content';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/banners/create, or /{id}/update with the whole banner. */
export const saveBanner = (id: number | null, body: BannerInput) =>
  api.post<AdminBanner>(id === null ? '/admin/banners/create' : `/admin/banners/${id}/update`, body);

/** Saves the banner `id` (null: a new one). */
export function useSaveBanner(id: number | null, ui?: WriteUi<BannerInput, AdminBanner>) {
  return useWrite((body: BannerInput) => saveBanner(id, body), { invalidate: [queryKeys.banners] }, ui);
}
