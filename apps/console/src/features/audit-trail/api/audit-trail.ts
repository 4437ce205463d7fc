import type { AuditTrailPage, auditTrailQuery } from '@coffer/contract/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export type AuditTrailQuery = z.output<typeof auditTrailQuery>;

/** GET /api/admin/audit-trail?actor=&action=&targetType=&targetId=&page=&pageSize= */
export const getAuditTrail = (query: AuditTrailQuery) => api.get<AuditTrailPage>('/admin/audit-trail', { ...query });

export const auditTrailQueryOptions = (query: AuditTrailQuery) =>
  queryOptions({ queryKey: queryKeys.auditTrail.page(query), queryFn: () => getAuditTrail(query), placeholderData: keepPreviousData });

export function useAuditTrail(query: AuditTrailQuery) {
  return useQuery(auditTrailQueryOptions(query));
}
