import { ErrorCode } from '@coffer/contract/errors';
import { Skeleton } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RichHtml } from '../../../components/rich-html';
import { EmptyState } from '../../../components/wallet/empty-state';
import { LoadFailed } from '../../../components/wallet/load-failed';
import { isApiError } from '@coffer/api-client/api-error';
import { formatDateTime } from '../../../lib/wallet/format';
import { useHelpArticle } from '../api/get-help-article';

/** One article (/helpCenter?id=): deep-linkable, back returns to the list as it was. */
export function HelpArticleView({ id }: { id: number }) {
  const { t } = useTranslation();
  const article = useHelpArticle(id);

  if (isApiError(article.error, ErrorCode.NOT_FOUND)) {
    return (
      <EmptyState title={t('help.notFound')} testId="help-not-found">
        <Link to="/helpCenter" className="help-back">
          {t('help.backToList')}
        </Link>
      </EmptyState>
    );
  }
  if (article.isError) return <LoadFailed testId="help-failed" onRetry={() => void article.refetch()} />;
  if (!article.data) {
    return (
      <div className="card" aria-busy="true">
        <Skeleton.Title animated />
        <Skeleton.Paragraph animated lineCount={6} />
      </div>
    );
  }
  const { title, topicTitle, html, updatedAt } = article.data;
  return (
    <article className="card" data-testid="help-article">
      <p className="help-topic-label">{topicTitle}</p>
      <h1 className="help-article-title" data-testid="help-article-title">
        {title}
      </h1>
      <p className="wallet-muted help-article-meta">{t('help.updatedAt', { time: formatDateTime(updatedAt) })}</p>
      <RichHtml html={html} testId="help-article-body" />
    </article>
  );
}
