import '../../../components/wallet/wallet.css';
import '../banner.css';
import type { ActivityDetails, ActivityStatus } from '@coffer/contract/activity';
import { ErrorCode } from '@coffer/contract/errors';
import { Skeleton } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RichHtml } from '../../../components/rich-html';
import { EmptyState } from '../../../components/wallet/empty-state';
import { LoadFailed } from '../../../components/wallet/load-failed';
import { isApiError } from '@coffer/api-client/api-error';
import { isSignedIn } from '../../../lib/session';
import { formatDateTime } from '../../../lib/wallet/format';
import { useActivities } from '../api/get-activities';
import { useActivity } from '../api/get-activity';
import { useRanking } from '../api/get-ranking';
import { useUserRank } from '../api/get-user-rank';
import { ActivityCountdown } from '../components/activity-countdown';
import { MyRank, SignInForRank } from '../components/my-rank';
import { PrizeTable } from '../components/prize-table';
import { RankBoard } from '../components/rank-board';
import { idParam, pickActivity } from '../utils/pick-activity';

function statusTone(status: ActivityStatus): string {
  if (status === 'live') return 'ranking-status--live';
  if (status === 'upcoming') return 'ranking-status--upcoming';
  return 'ranking-status--closed';
}

function ActivityHeader({ activity }: { activity: ActivityDetails }) {
  const { t } = useTranslation();
  const metric =
    activity.metric === 'transfers_sent'
      ? t('ranking.metric.transfers_sent', { currency: activity.metricCurrency ?? '', min: activity.minTransfer ?? '' })
      : t('ranking.metric.swap_volume_usdt');
  return (
    <section className="ranking-hero">
      <div className="flex items-start justify-between gap-3">
        <h1 className="ranking-title" data-testid="ranking-title">
          {activity.title}
        </h1>
        <span className={`ranking-status ${statusTone(activity.status)}`} data-testid="ranking-status">
          {t(`ranking.status.${activity.status}`)}
        </span>
      </div>
      <ActivityCountdown startsAt={activity.startsAt} endsAt={activity.endsAt} />
      <p className="ranking-meta">
        {t('ranking.window', { start: formatDateTime(activity.startsAt), end: formatDateTime(activity.endsAt) })}
      </p>
      <p className="ranking-meta">{t('ranking.scoreBy', { metric })}</p>
    </section>
  );
}

/**
 * /banner/ranking?id= (public). Without an id it shows the live activity (else the next or the
 * latest). The board refreshes every 30 s; signed in, my row is pinned at the bottom.
 */
export default function BannerRankingPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const signedIn = isSignedIn();
  const requested = idParam(params.get('id'));
  const list = useActivities(requested === null);
  const id = requested ?? (list.data ? (pickActivity(list.data.items)?.id ?? null) : null);

  const activity = useActivity(id);
  const ranking = useRanking(id);
  const mine = useUserRank(id, signedIn);

  if (requested === null && list.isError) return <LoadFailed testId="ranking-failed" onRetry={() => void list.refetch()} />;
  if (requested === null && list.data && id === null) {
    return <EmptyState title={t('ranking.none')} testId="ranking-none" />;
  }
  if (activity.isError) {
    if (isApiError(activity.error, ErrorCode.NOT_FOUND)) {
      return <EmptyState title={t('ranking.notFound')} testId="ranking-not-found" />;
    }
    return <LoadFailed testId="ranking-failed" onRetry={() => void activity.refetch()} />;
  }
  if (!activity.data) {
    return (
      <div className="wallet-page" aria-busy="true">
        <Skeleton.Title animated />
        <Skeleton.Paragraph animated lineCount={6} />
      </div>
    );
  }

  return (
    <div className="wallet-page ranking-page" data-testid="ranking-page">
      <ActivityHeader activity={activity.data} />
      <PrizeTable activity={activity.data} />
      <section className="card" aria-labelledby="ranking-board-title">
        <div className="ranking-section-head">
          <h2 id="ranking-board-title" className="ranking-section-title">
            {t('ranking.board')}
          </h2>
          {ranking.data ? <span className="wallet-muted">{t('ranking.qualified', { count: ranking.data.qualified })}</span> : null}
        </div>
        {ranking.data ? (
          <RankBoard ranking={ranking.data} myRank={mine.data?.rank ?? null} />
        ) : ranking.isError ? (
          <LoadFailed testId="ranking-board-failed" onRetry={() => void ranking.refetch()} />
        ) : (
          <Skeleton.Paragraph animated lineCount={5} />
        )}
      </section>
      {activity.data.rulesHtml ? (
        <section className="card" aria-labelledby="ranking-rules">
          <h2 id="ranking-rules" className="ranking-section-title mb-2">
            {t('ranking.rules')}
          </h2>
          <RichHtml html={activity.data.rulesHtml} testId="ranking-rules" />
        </section>
      ) : null}
      {signedIn ? <MyRank mine={mine.data} activity={activity.data} /> : <SignInForRank />}
    </div>
  );
}
