import type { ActivityRanking } from '@coffer/contract/activity';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Rankings move with every swap or transfer: refreshed this often while the page is open. */
export const RANKING_REFRESH_MS = 30_000;

/** GET /api/activity/getAllRank?id= (public): the top ranks (server default size) with masked names. */
export function getRanking(id: number): Promise<ActivityRanking> {
  return apiGet<ActivityRanking>('/activity/getAllRank', { id });
}

export function useRanking(id: number | null) {
  return useQuery({
    queryKey: queryKeys.activities.ranking(id),
    queryFn: () => getRanking(id!),
    enabled: id !== null,
    refetchInterval: RANKING_REFRESH_MS,
  });
}
