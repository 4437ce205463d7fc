import type { AdminHelpArticle } from '@coffer/contract/content';
import { api } from '../../../lib/api';

/** GET /api/admin/help/articles/{id}: the whole article (both languages' Markdown), read when its editor opens. */
export const getHelpArticle = (id: number) => api.get<AdminHelpArticle>(`/admin/help/articles/${id}`);
