import type { chainIncident } from '@coffer/contract/chain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export type ChainIncident = z.infer<typeof chainIncident>;

/** GET /api/admin/chain/incidents?open=true|false, newest first. */
export const getIncidents = (openOnly: boolean) => api.get<ChainIncident[]>('/admin/chain/incidents', { open: String(openOnly) });

export const incidentsQuery = (openOnly: boolean) =>
  queryOptions({ queryKey: queryKeys.incidents.list(openOnly), queryFn: () => getIncidents(openOnly) });

export function useIncidents(openOnly: boolean) {
  return useQuery(incidentsQuery(openOnly));
}
