import type { AdminBanner, ContentReasonBody } from '@coffer/contract/content';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/banners/{id}/retire */
export const retireBanner = (id: number, body: ContentReasonBody) => apiPost<AdminBanner>(`/admin/banners/${id}/retire`, body);
