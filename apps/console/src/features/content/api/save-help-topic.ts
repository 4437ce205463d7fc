import type { AdminHelpTopic, HelpTopicInput } from '@coffer/contract/content';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { useWrite, type WriteUi } from '../../../lib/use-write';

/** POST /api/admin/help/topics/create, or /{id}/update. */
export const saveHelpTopic = (id: number | null, body: HelpTopicInput) =>
  api.post<AdminHelpTopic>(id === null ? '/admin/help/topics/create' : `/admin/help/topics/${id}/update`, body);

/** Saves the topic `id` (null: a new one). */
export function useSaveHelpTopic(id: number | null, ui?: WriteUi<HelpTopicInput, AdminHelpTopic>) {
  return useWrite((body: HelpTopicInput) => saveHelpTopic(id, body), { invalidate: [queryKeys.help] }, ui);
}
