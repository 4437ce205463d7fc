import type { AlertAcknowledgeBody, OperatorAlert } from '@coffer/contract/alerts';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/alerts/{id}/acknowledge with the reason (audited); the alert stays open. */
export const acknowledgeAlert = (id: number, body: AlertAcknowledgeBody) => apiPost<OperatorAlert>(`/admin/alerts/${id}/acknowledge`, body);
