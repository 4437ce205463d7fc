import type { AdminHelpTopic, HelpTopicInput } from '@coffer/contract/content';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/help/topics/create, or /{id}/update. */
export const saveHelpTopic = (id: number | null, body: HelpTopicInput) =>
  apiPost<AdminHelpTopic>(id === null ? '/admin/help/topics/create' : `/admin/help/topics/${id}/update`, body);
