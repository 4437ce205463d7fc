import type { ActivityDetails, ActivityUserRank } from '@coffer/contract/activity';
import { useTranslation } from 'react-i18next';
import { useMoneyText } from '../../../components/wallet/amount';
import { Link } from 'react-router';
import { formatCompact, isZeroAmount } from '../../../lib/money';
import { SCORE_DECIMALS } from './rank-board';

/** Where taking part happens, per metric. */
const JOIN_PATHS: Record<ActivityDetails['metric'], string> = { swap_volume_usdt: '/swap', transfers_sent: '/transfer' };

/** Unranked while it can still change: what puts the user on the board, and a way there. */
function JoinPrompt({ activity }: { activity: ActivityDetails }) {
  const { t } = useTranslation();
  if (activity.status !== 'live' && activity.status !== 'upcoming') return null;
  return (
    <div className="ranking-join-row">
      <p className="ranking-mine-gap m-0" data-testid="ranking-join-hint">
        {t(`ranking.joinHint.${activity.metric}`, { min: activity.minTransfer ?? '', currency: activity.metricCurrency ?? '' })}
      </p>
      <Link to={JOIN_PATHS[activity.metric]} className="ranking-sign-in" data-testid="ranking-join">
        {t(`ranking.join.${activity.metric}`)}
      </Link>
    </div>
  );
}

/**
 * Pinned to the bottom of the ranking: my rank, score and the gap to the next prize; unranked,
 * how to get on the board instead of "0 more to reach rank 3".
 */
export function MyRank({ mine, activity }: { mine: ActivityUserRank | undefined; activity: ActivityDetails }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  if (!mine) return <div className="ranking-mine" aria-busy="true" data-testid="ranking-mine-loading" />;
  const gap =
    mine.gapToNextPrize && !isZeroAmount(mine.gapToNextPrize) && mine.nextPrizeRank !== null
      ? t('ranking.gap', { amount: formatCompact(mine.gapToNextPrize, SCORE_DECIMALS), rank: mine.nextPrizeRank })
      : mine.rank === 1
        ? t('ranking.top')
        : null;
  return (
    <section className="ranking-mine" aria-label={t('ranking.mine')} data-testid="ranking-mine">
      <div className="ranking-mine-rank" data-testid="ranking-mine-rank">
        <span className="ranking-mine-label">{t('ranking.mine')}</span>
        <strong>{mine.rank === null ? t('ranking.unranked') : t('ranking.rankOne', { rank: mine.rank })}</strong>
      </div>
      <div className="min-w-0 flex-1 text-right">
        <div data-testid="ranking-mine-score">
          {t('ranking.myScore', { score: formatCompact(mine.score, SCORE_DECIMALS) })}
          {mine.prize ? ` · ${money(mine.prize, mine.prizeCurrency)} ${mine.prizeCurrency}` : ''}
        </div>
        {gap ? (
          <div className="ranking-mine-gap" data-testid="ranking-mine-gap">
            {gap}
          </div>
        ) : null}
      </div>
      {mine.rank === null ? <JoinPrompt activity={activity} /> : null}
    </section>
  );
}

/** Signed out: where my row would be, an invitation to sign in. */
export function SignInForRank() {
  const { t } = useTranslation();
  return (
    <section className="ranking-mine" data-testid="ranking-sign-in">
      <span className="ranking-mine-label">{t('ranking.signInPrompt')}</span>
      <Link to="/login" className="ranking-sign-in">
        {t('ranking.signIn')}
      </Link>
    </section>
  );
}
