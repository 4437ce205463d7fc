import type { AlertList } from '@coffer/contract/alerts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** The badge and the page poll this often, so an alert shows without reloading. */
export const ALERTS_POLL_MS = 30_000;

/** GET /api/admin/alerts: the open alerts and the recent resolved ones, newest first. */
export const getAlerts = () => api.get<AlertList>('/admin/alerts');

export const alertsQuery = () => queryOptions({ queryKey: queryKeys.alerts, queryFn: getAlerts, refetchInterval: ALERTS_POLL_MS });

export function useAlerts() {
  return useQuery(alertsQuery());
}
