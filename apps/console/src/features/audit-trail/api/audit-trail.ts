import type { AuditTrailPage, auditTrailQuery } from '@coffer/contract/admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet } from '../../../lib/api';

export type AuditTrailQuery = z.output<typeof auditTrailQuery>;

/** GET /api/admin/audit-trail?actor=&action=&targetType=&targetId=&page=&pageSize= */
export const getAuditTrail = (query: AuditTrailQuery) => apiGet<AuditTrailPage>('/admin/audit-trail', { ...query });

export function useAuditTrail(query: AuditTrailQuery) {
  return useQuery({ queryKey: ['console', 'audit-trail', query], queryFn: () => getAuditTrail(query), placeholderData: keepPreviousData });
}
