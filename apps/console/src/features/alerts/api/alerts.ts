import type { AlertList } from '@coffer/contract/alerts';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const ALERTS_KEY = ['console', 'alerts'] as const;
/** The badge and the page poll this often, so an alert shows without reloading. */
export const ALERTS_POLL_MS = 30_000;

/** GET /api/admin/alerts: the open alerts and the recent resolved ones, newest first. */
export const getAlerts = () => apiGet<AlertList>('/admin/alerts');

export function useAlerts() {
  return useQuery({ queryKey: ALERTS_KEY, queryFn: getAlerts, refetchInterval: ALERTS_POLL_MS });
}
