import '../../../components/wallet/wallet.css';
import { List, Skeleton } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { formatRateValue } from '../../../lib/amount-format';
import { useSwapRates } from '../../../lib/wallet/swap-rates';
import { REFERENCE_CURRENCY } from '../utils/total-value';
import { AppLink } from '../../../app/nav';

/** Signed-out home: what one unit of each currency fetches in USDT right now. */
export default function PublicRates() {
  const { t } = useTranslation();
  const rates = useSwapRates();
  const pairs = rates.data?.list.filter((p) => p.toCurrency === REFERENCE_CURRENCY) ?? [];

  return (
    <section className="card" data-testid="public-rates">
      <div className="mb-1 flex items-center justify-between">
        <h2 className="m-0 text-base font-semibold">{t('assets.rates')}</h2>
        <AppLink to="/swap" className="text-sm">
          {t('assets.goSwap')}
        </AppLink>
      </div>
      {rates.isPending ? (
        <Skeleton.Paragraph animated lineCount={3} />
      ) : (
        <List style={{ '--border-top': 'none', '--border-bottom': 'none' }}>
          {pairs.map((pair) => (
            <List.Item
              key={`${pair.fromCurrencyId}-${pair.toCurrencyId}`}
              prefix={<CurrencyIcon code={pair.fromCurrency} size={28} />}
              extra={
                <span data-testid={`rate-${pair.fromCurrency}`}>
                  {formatRateValue(pair.rate, { code: pair.toCurrency, decimals: 18 })} {pair.toCurrency}
                </span>
              }
            >
              {pair.fromCurrency}
            </List.Item>
          ))}
        </List>
      )}
    </section>
  );
}
