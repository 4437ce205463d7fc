import type { PageResponse } from '@coffer/contract/common';
import { PAGE_SIZE_DEFAULT } from '@coffer/contract/rules';
import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';

export const PAGE_SIZE = PAGE_SIZE_DEFAULT;

/** A `{page, pageSize}` list endpoint as an infinite query (pages from 1). */
export function usePaged<T>(queryKey: QueryKey, fetchPage: (page: number) => Promise<PageResponse<T>>, enabled = true) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
    enabled,
    staleTime: 10_000,
  });
}
