import type { DashboardData } from '@coffer/contract/admin';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const DASHBOARD_KEY = ['console', 'dashboard'] as const;

/** GET /api/admin/dashboard */
export const getDashboard = () => apiGet<DashboardData>('/admin/dashboard');

export function useDashboard() {
  return useQuery({ queryKey: DASHBOARD_KEY, queryFn: getDashboard });
}
