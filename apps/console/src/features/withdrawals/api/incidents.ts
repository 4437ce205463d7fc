import type { chainIncident } from '@coffer/contract/chain';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet } from '../../../lib/api';

export type ChainIncident = z.infer<typeof chainIncident>;
export const INCIDENTS_KEY = ['console', 'incidents'] as const;

/** GET /api/admin/chain/incidents?open=true|false, newest first. */
export const getIncidents = (openOnly: boolean) => apiGet<ChainIncident[]>('/admin/chain/incidents', { open: String(openOnly) });

export function useIncidents(openOnly: boolean) {
  return useQuery({ queryKey: [...INCIDENTS_KEY, openOnly], queryFn: () => getIncidents(openOnly) });
}
