import type { QueryKey } from '@tanstack/react-query';

/**
 * Query keys of the on-chain records, shared by the pages that show them and by the
 * live event stream that marks them stale. Every key starts with its family's prefix, so
 * invalidating the prefix reaches lists, details and limits alike.
 */

export const depositsQueryKey = ['deposits'] as const;
export const withdrawalsQueryKey = ['withdrawals'] as const;

export function depositDetailKey(id: number): QueryKey {
  return [...depositsQueryKey, 'detail', id];
}

export function withdrawalDetailKey(id: number): QueryKey {
  return [...withdrawalsQueryKey, 'detail', id];
}

export function withdrawLimitsKey(networkId: number): QueryKey {
  return [...withdrawalsQueryKey, 'limits', networkId];
}
