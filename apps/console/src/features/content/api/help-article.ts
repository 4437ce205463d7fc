import type { AdminHelpArticle } from '@coffer/contract/content';
import { apiGet } from '../../../lib/api';

/** GET /api/admin/help/articles/{id}: the whole article (both languages' Markdown). */
export const getHelpArticle = (id: number) => apiGet<AdminHelpArticle>(`/admin/help/articles/${id}`);
