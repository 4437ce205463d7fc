import type { ActivityDetails } from '@coffer/contract/activity';
import { useTranslation } from 'react-i18next';
import { useMoneyText } from '../../../components/wallet/amount';

/** The prize tiers: "Rank 1", "Rank 2–5", each with its amount. */
export function PrizeTable({ activity }: { activity: ActivityDetails }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  return (
    <section className="card" aria-labelledby="ranking-prizes">
      <div className="ranking-section-head">
        <h2 id="ranking-prizes" className="ranking-section-title">
          {t('ranking.prizes')}
        </h2>
        <span className="wallet-muted">
          {t('ranking.prizeTotal', { amount: money(activity.prizeTotal, activity.prizeCurrency), currency: activity.prizeCurrency })}
        </span>
      </div>
      <table className="ranking-table" data-testid="ranking-prizes">
        <thead>
          <tr>
            <th scope="col">{t('ranking.rank')}</th>
            <th scope="col" className="ranking-num">
              {t('ranking.prize')}
            </th>
          </tr>
        </thead>
        <tbody>
          {activity.prizes.map((tier) => (
            <tr key={tier.rankFrom}>
              <td>
                {tier.rankFrom === tier.rankTo
                  ? t('ranking.rankOne', { rank: tier.rankFrom })
                  : t('ranking.rankRange', { from: tier.rankFrom, to: tier.rankTo })}
              </td>
              <td className="ranking-num">
                {money(tier.amount, activity.prizeCurrency)} {activity.prizeCurrency}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
