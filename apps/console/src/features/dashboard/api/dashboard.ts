import type { DashboardData } from '@coffer/contract/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/admin/dashboard */
export const getDashboard = () => api.get<DashboardData>('/admin/dashboard');

export const dashboardQuery = () => queryOptions({ queryKey: queryKeys.dashboard, queryFn: getDashboard });

export function useDashboard() {
  return useQuery(dashboardQuery());
}
