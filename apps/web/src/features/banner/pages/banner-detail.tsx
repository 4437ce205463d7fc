import '../../../components/wallet/wallet.css';
import '../banner.css';
import { ErrorCode } from '@coffer/contract/errors';
import { Skeleton } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { RichHtml } from '../../../components/rich-html';
import { EmptyState } from '../../../components/wallet/empty-state';
import { LoadFailed } from '../../../components/wallet/load-failed';
import { isApiError } from '@coffer/api-client/api-error';
import { useBanner } from '../api/get-banner';
import { idParam } from '../utils/pick-activity';

/** Same box as the home carousel: the image never shifts the text below it. */
const IMAGE_WIDTH = 750;
const IMAGE_HEIGHT = 375;

function NotFound() {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('banner.notFound')} testId="banner-not-found">
      <Link to="/" className="banner-action">
        {t('pages.goHome')}
      </Link>
    </EmptyState>
  );
}

/** /banner/detail?id= (public): image, title, body, and the way to its ranking when it leads to one. */
export default function BannerDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = idParam(params.get('id'));
  const banner = useBanner(id);

  if (id === null || isApiError(banner.error, ErrorCode.NOT_FOUND)) return <NotFound />;
  if (banner.isError) return <LoadFailed testId="banner-failed" onRetry={() => void banner.refetch()} />;
  if (!banner.data) {
    return (
      <div className="wallet-page" aria-busy="true">
        <div className="banner-hero-image banner-hero-image--loading" />
        <Skeleton.Title animated />
        <Skeleton.Paragraph animated lineCount={5} />
      </div>
    );
  }

  const { title, imageUrl, html, link } = banner.data;
  return (
    <article className="wallet-page" data-testid="banner-detail">
      <img className="banner-hero-image" src={imageUrl} alt={title} width={IMAGE_WIDTH} height={IMAGE_HEIGHT} />
      <div className="card">
        <h1 className="banner-title" data-testid="banner-title">
          {title}
        </h1>
        {html ? <RichHtml html={html} testId="banner-body" /> : null}
      </div>
      {link.type === 'ranking' && link.target.startsWith('/banner/ranking') ? (
        <Link to={link.target} className="banner-action banner-action--solid" data-testid="banner-ranking-link">
          {t('banner.viewRanking')}
        </Link>
      ) : null}
    </article>
  );
}
