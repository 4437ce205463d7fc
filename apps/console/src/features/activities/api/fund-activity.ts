import type { ActivityFundBody, ActivityFundResult } from '@coffer/contract/activity';
import { apiPost } from '../../../lib/api';

/** POST /api/admin/activities/fund: adjustments account -> prize account; keyed against double submits. */
export const fundActivity = (body: ActivityFundBody, idempotencyKey: string) =>
  apiPost<ActivityFundResult>('/admin/activities/fund', body, { 'idempotency-key': idempotencyKey });
