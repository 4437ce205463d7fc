import type { resolveIncidentBody } from '@coffer/contract/chain';
import type { z } from 'zod';
import { apiPost } from '../../../lib/api';
import type { ChainIncident } from './incidents';

/** POST /api/admin/chain/incidents/{id}/resolve: lifts its payout freeze. */
export const resolveIncident = (id: number, body: z.infer<typeof resolveIncidentBody>) =>
  apiPost<ChainIncident>(`/admin/chain/incidents/${id}/resolve`, body);
