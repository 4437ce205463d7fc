import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import '../notice-center.css';
import type { NoticeItem } from '@coffer/contract/content';
import { Button, InfiniteScroll, List, PullToRefresh } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../../components/wallet/empty-state';
import { ListSkeleton } from '../../../components/wallet/list-skeleton';
import { LoadFailed } from '../../../components/wallet/load-failed';
import { toastSuccess } from '../../../lib/notify';
import { formatDateTime } from '../../../lib/wallet/format';
import { useNotices } from '../api/get-notices';
import { useReadAll } from '../api/read-all';

function NoticeRow({ notice }: { notice: NoticeItem }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const unread = notice.read === false;
  return (
    <List.Item
      data-testid={`notice-row-${notice.id}`}
      data-unread={unread}
      prefix={
        <span
          className={unread ? 'notice-dot notice-dot--unread' : 'notice-dot'}
          aria-hidden
          data-testid={unread ? 'notice-unread-dot' : undefined}
        />
      }
      description={
        <span>
          {formatDateTime(notice.publishedAt)}
          {notice.personal ? <span className="notice-personal">{t('notice.personal')}</span> : null}
        </span>
      }
      onClick={() => navigate(`/noticeCenter/detail?id=${notice.id}`)}
    >
      <span className={unread ? 'notice-title notice-title--unread' : 'notice-title'}>
        {unread ? <span className="sr-only">{t('notice.unread')} </span> : null}
        {notice.title}
      </span>
    </List.Item>
  );
}

/** /noticeCenter: public and personal notices, newest first, with unread dots and "all read". */
export default function NoticeCenterPage() {
  const { t } = useTranslation();
  const notices = useNotices();
  const readAll = useReadAll();
  const items = notices.data?.pages.flatMap((page) => page.list) ?? [];
  const unreadCount = notices.data?.pages[0]?.unreadCount ?? 0;

  const markAll = async () => {
    await readAll.mutateAsync();
    toastSuccess(t('notice.allReadDone'));
  };

  let body: ReactNode;
  if (notices.isPending) body = <ListSkeleton />;
  else if (notices.isError && items.length === 0) body = <LoadFailed testId="notices-failed" onRetry={() => void notices.refetch()} />;
  else if (items.length === 0) body = <EmptyState title={t('notice.empty')} testId="notices-empty" />;
  else {
    body = (
      <>
        <List className="notice-list" mode="card" style={{ margin: 0 }}>
          {items.map((notice) => (
            <NoticeRow key={notice.id} notice={notice} />
          ))}
        </List>
        <InfiniteScroll
          hasMore={notices.hasNextPage}
          loadMore={async () => {
            const next = await notices.fetchNextPage();
            if (next.isError) throw next.error;
          }}
        />
      </>
    );
  }

  return (
    <PullToRefresh
      onRefresh={async () => {
        await notices.refetch();
      }}
    >
      <div className="wallet-page" data-testid="notice-center">
        <div className="notice-head">
          <span className="wallet-muted" data-testid="notice-unread-count">
            {t('notice.unreadCount', { count: unreadCount })}
          </span>
          <Button
            size="small"
            fill="none"
            className="notice-read-all"
            disabled={unreadCount === 0}
            loading={readAll.isPending}
            onClick={() => void markAll()}
            data-testid="notice-read-all"
          >
            {t('notice.readAll')}
          </Button>
        </div>
        {body}
      </div>
    </PullToRefresh>
  );
}
