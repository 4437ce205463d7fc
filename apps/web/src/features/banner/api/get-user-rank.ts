import type { ActivityUserRank } from '@coffer/contract/activity';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { RANKING_REFRESH_MS } from './get-ranking';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/activity/getUserRank?id= (signed in): my rank, score and the gap to the next prize. */
export function getUserRank(id: number): Promise<ActivityUserRank> {
  return apiGet<ActivityUserRank>('/activity/getUserRank', { id });
}

export function useUserRank(id: number | null, signedIn: boolean) {
  return useQuery({
    queryKey: queryKeys.activities.myRank(id),
    queryFn: () => getUserRank(id!),
    enabled: id !== null && signedIn,
    refetchInterval: RANKING_REFRESH_MS,
  });
}
