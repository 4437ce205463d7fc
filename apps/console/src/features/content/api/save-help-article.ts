import type { AdminHelpArticle, HelpArticleInput } from '@coffer/contract/content';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/help/articles/create, or /{id}/update. */
export const saveHelpArticle = (id: number | null, body: HelpArticleInput) =>
  apiPost<AdminHelpArticle>(id === null ? '/admin/help/articles/create' : `/admin/help/articles/${id}/update`, body);
