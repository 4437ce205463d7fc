import '../../../components/wallet/motion';
import './paged-list.css';
import type { PageResponse } from '@coffer/contract/common';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { InfiniteScroll, List, PullToRefresh } from 'antd-mobile';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/wallet/empty-state';
import { ListSkeleton } from '../../../components/wallet/list-skeleton';
import { groupByDay } from '../utils/days';

interface PagedListProps<T> {
  query: UseInfiniteQueryResult<InfiniteData<PageResponse<T>>>;
  renderItem: (item: T) => ReactNode;
  keyOf: (item: T) => string | number;
  /** When the record happened (ISO): rows sit under one header per local day. */
  timeOf: (item: T) => string;
  emptyTitle: string;
  emptyDescription?: string;
  testId: string;
}

/**
 * A record list: skeleton on first load, pull to refresh, infinite scroll, an empty state,
 * and a retry state when the first page fails.
 */
export function PagedList<T>({ query, renderItem, keyOf, timeOf, emptyTitle, emptyDescription, testId }: PagedListProps<T>) {
  const { t, i18n } = useTranslation();
  const items = query.data?.pages.flatMap((page) => page.list) ?? [];

  const refresh = async () => {
    await query.refetch();
  };

  let body: ReactNode;
  if (query.isPending) {
    body = <ListSkeleton />;
  } else if (query.isError && items.length === 0) {
    body = (
      <EmptyState status="disconnected" title={t('wallet.loadFailed')} testId={`${testId}-error`}>
        <button type="button" className="home-button home-button--outline" onClick={() => void refresh()}>
          {t('common.retry')}
        </button>
      </EmptyState>
    );
  } else if (items.length === 0) {
    body = <EmptyState title={emptyTitle} description={emptyDescription} testId={`${testId}-empty`} />;
  } else {
    body = (
      <>
        {groupByDay(items, timeOf, i18n.language).map((group) => (
          <section key={group.key} className="bill-day">
            <h2 className="bill-day-header">{group.label}</h2>
            <List className="wallet-list" mode="card" style={{ margin: 0 }}>
              {group.items.map((item) => (
                <Fragment key={keyOf(item)}>{renderItem(item)}</Fragment>
              ))}
            </List>
          </section>
        ))}
        <InfiniteScroll
          hasMore={query.hasNextPage}
          loadMore={async () => {
            const next = await query.fetchNextPage();
            if (next.isError) throw next.error;
          }}
        />
      </>
    );
  }

  return (
    <PullToRefresh onRefresh={refresh}>
      <div className="bill-list" data-testid={testId}>
        {body}
      </div>
    </PullToRefresh>
  );
}
