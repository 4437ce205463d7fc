import type { DashboardData } from '@coffer/contract/admin';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import { DASHBOARD_KEY } from '../../../lib/query-keys';

/** GET /api/admin/dashboard */
export const getDashboard = () => apiGet<DashboardData>('/admin/dashboard');

export function useDashboard() {
  return useQuery({ queryKey: DASHBOARD_KEY, queryFn: getDashboard });
}
