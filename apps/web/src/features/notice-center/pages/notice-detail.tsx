import '../../../components/wallet/wallet.css';
import '../notice-center.css';
import { ErrorCode } from '@coffer/contract/errors';
import { Skeleton } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { RichHtml } from '../../../components/rich-html';
import { EmptyState } from '../../../components/wallet/empty-state';
import { LoadFailed } from '../../../components/wallet/load-failed';
import { isApiError } from '@coffer/api-client/api-error';
import { formatDateTime } from '../../../lib/wallet/format';
import { useNotice } from '../api/get-notice';
import { recordIdParam } from '../../../lib/record-id';

/** /noticeCenter/detail?id=: the notice's body; opening it marks it read. */
export default function NoticeDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = recordIdParam(params.get('id'));
  const notice = useNotice(id);

  if (id === null || isApiError(notice.error, ErrorCode.NOT_FOUND)) {
    return (
      <EmptyState title={t('notice.notFound')} testId="notice-not-found">
        <Link to="/noticeCenter" className="notice-back">
          {t('notice.backToList')}
        </Link>
      </EmptyState>
    );
  }
  if (notice.isError) return <LoadFailed testId="notice-failed" onRetry={() => void notice.refetch()} />;
  if (!notice.data) {
    return (
      <div className="card" aria-busy="true">
        <Skeleton.Title animated />
        <Skeleton.Paragraph animated lineCount={6} />
      </div>
    );
  }

  const { title, publishedAt, html, personal } = notice.data;
  return (
    <article className="card" data-testid="notice-detail">
      <h1 className="notice-detail-title" data-testid="notice-title">
        {title}
      </h1>
      <p className="wallet-muted notice-detail-meta">
        <time dateTime={publishedAt}>{formatDateTime(publishedAt)}</time>
        {personal ? <span className="notice-personal">{t('notice.personal')}</span> : null}
      </p>
      <RichHtml html={html} testId="notice-body" />
    </article>
  );
}
