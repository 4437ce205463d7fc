import type { AdminHelpArticle, HelpArticleInput } from '@coffer/contract/content';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/help/articles/create, or /{id}/update. */
export const saveHelpArticle = (id: number | null, body: HelpArticleInput) =>
  api.post<AdminHelpArticle>(id === null ? '/admin/help/articles/create' : `/admin/help/articles/${id}/update`, body);

/** Saves the article `id` (null: a new one). */
export function useSaveHelpArticle(id: number | null, ui?: WriteUi<HelpArticleInput, AdminHelpArticle>) {
  return useWrite((body: HelpArticleInput) => saveHelpArticle(id, body), { invalidate: [queryKeys.help] }, ui);
}
