import type { ActivityRanking } from '@coffer/contract/activity';
import { useTranslation } from 'react-i18next';
import { useMoneyText } from '../../../components/wallet/amount';
import { EmptyState } from '../../../components/wallet/empty-state';
import { avatarUrl } from '../../../lib/avatars';
import { formatCompact } from '../../../lib/money';

/** Scores are shown to this many decimals (cut, never rounded up); prizes exactly. */
export const SCORE_DECIMALS = 2;

const AVATAR_PX = 32;

/** The top ranks: rank, avatar, masked name, score, prize. `myRank` marks my own row. */
export function RankBoard({ ranking, myRank }: { ranking: ActivityRanking; myRank: number | null }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  if (ranking.items.length === 0) return <EmptyState title={t('ranking.emptyBoard')} testId="ranking-empty" />;
  return (
    <ol className="ranking-board" data-testid="ranking-board">
      {ranking.items.map((row) => {
        const mine = row.rank === myRank;
        return (
          <li
            key={row.rank}
            className={mine ? 'ranking-row ranking-row--mine' : 'ranking-row'}
            data-testid={`ranking-row-${row.rank}`}
            aria-current={mine ? 'true' : undefined}
          >
            <span className={`ranking-rank ranking-rank--${Math.min(row.rank, 4)}`}>{row.rank}</span>
            <img className="ranking-avatar" src={avatarUrl(row.avatar)} alt="" width={AVATAR_PX} height={AVATAR_PX} loading="lazy" />
            <span className="ranking-name truncate">{row.name}</span>
            <span className="ranking-score ranking-num">
              {formatCompact(row.score, SCORE_DECIMALS)}
              {row.prize ? (
                <span className="ranking-prize">
                  {money(row.prize, ranking.prizeCurrency)} {ranking.prizeCurrency}
                </span>
              ) : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
