import type { QueryKey } from '@tanstack/react-query';
import { queryKeys } from '../query-keys';

/**
 * Query keys of the on-chain records under the names the pages already import; they are
 * lib/query-keys' deposits and withdrawals families (one definition per resource).
 */

export function depositDetailKey(id: number): QueryKey {
  return queryKeys.deposits.detail(id);
}

export function withdrawalDetailKey(id: number): QueryKey {
  return queryKeys.withdrawals.detail(id);
}

export function withdrawLimitsKey(networkId: number): QueryKey {
  return queryKeys.withdrawals.limits(networkId);
}
