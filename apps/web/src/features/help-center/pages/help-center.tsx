import '../../../components/wallet/wallet.css';
import '../help-center.css';
import { Skeleton } from 'antd-mobile';
import { RightOutline, SearchOutline } from 'antd-mobile-icons';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/wallet/empty-state';
import { LoadFailed } from '../../../components/wallet/load-failed';
import { useHelpList } from '../api/get-help-list';
import { HelpArticleView } from '../components/help-article';
import { useDebounced } from '../hooks/use-debounced';
import { HELP_QUERY_MAX, SEARCH_DEBOUNCE_MS, searchQuery } from '../utils/search-query';
import { recordIdParam } from '../../../lib/record-id';

function HelpTopics() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(() => params.get('q') ?? '');
  const q = searchQuery(useDebounced(text, SEARCH_DEBOUNCE_MS));
  const list = useHelpList(q);

  // The search lives in the URL (replaced, not pushed): back from an article finds it again.
  useEffect(() => {
    setParams(q ? { q } : {}, { replace: true });
  }, [q, setParams]);

  const topics = list.data?.topics ?? [];
  let body: ReactNode;
  if (list.isPending) body = <Skeleton.Paragraph animated lineCount={8} />;
  else if (list.isError && !list.data) body = <LoadFailed testId="help-failed" onRetry={() => void list.refetch()} />;
  else if (topics.length === 0) {
    body = <EmptyState title={q ? t('help.noMatch', { q }) : t('help.empty')} testId="help-empty" />;
  } else {
    body = topics.map((topic) => (
      <section
        key={topic.key}
        className="card help-topic"
        aria-labelledby={`help-topic-${topic.key}`}
        data-testid={`help-topic-${topic.key}`}
      >
        <h2 id={`help-topic-${topic.key}`} className="help-topic-title">
          {topic.title}
        </h2>
        <ul className="help-articles">
          {topic.articles.map((article) => (
            <li key={article.id}>
              <Link to={`/helpCenter?id=${article.id}`} className="help-article-link" data-testid={`help-article-${article.id}`}>
                <span>{article.title}</span>
                <RightOutline aria-hidden />
              </Link>
            </li>
          ))}
        </ul>
      </section>
    ));
  }

  return (
    <div className="wallet-page" data-testid="help-center">
      <div className="help-search">
        <SearchOutline aria-hidden className="help-search-icon" />
        <label htmlFor="help-search" className="sr-only">
          {t('help.searchLabel')}
        </label>
        <input
          id="help-search"
          type="search"
          className="help-search-input"
          placeholder={t('help.searchPlaceholder')}
          value={text}
          maxLength={HELP_QUERY_MAX}
          enterKeyHint="search"
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <div aria-live="polite" aria-busy={list.isFetching} className="flex flex-col gap-3">
        {body}
      </div>
    </div>
  );
}

/** /helpCenter: topics and their articles with a title search; /helpCenter?id= opens one article. */
export default function HelpCenterPage() {
  const [params] = useSearchParams();
  const id = recordIdParam(params.get('id'));
  return id === null ? <HelpTopics /> : <HelpArticleView id={id} />;
}
