import '../../../components/wallet/wallet.css';
import './public-rates.css';
import type { SwapRatesData } from '@coffer/contract/swap';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../../lib/nav';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { formatRateValue } from '../../../lib/amount-format';
import { usePublicData } from '../../../lib/public-get';
import { REFERENCE_CURRENCY } from '../utils/total-value';

/**
 * Signed-out home: what one unit of each currency fetches in USDT right now. Plain markup and
 * a plain fetch (lib/public-get.ts), no HTTP client, query cache or antd list: it renders
 * while the landing page is meant to become interactive (decision 032).
 */
export default function PublicRates() {
  const { t } = useTranslation();
  const rates = usePublicData<SwapRatesData>('/swap/rates');
  const pairs = rates.state === 'ready' ? rates.data.list.filter((p) => p.toCurrency === REFERENCE_CURRENCY) : [];

  return (
    <section className="card" data-testid="public-rates">
      <div className="mb-1 flex items-center justify-between">
        <h2 className="m-0 text-base font-semibold">{t('assets.rates')}</h2>
        <AppLink to="/swap" className="text-sm">
          {t('assets.goSwap')}
        </AppLink>
      </div>
      {rates.state === 'pending' ? (
        <div className="public-rates-loading" aria-hidden>
          <span />
          <span />
          <span />
        </div>
      ) : (
        <ul className="public-rates">
          {pairs.map((pair) => (
            <li key={`${pair.fromCurrencyId}-${pair.toCurrencyId}`}>
              <CurrencyIcon code={pair.fromCurrency} size={28} />
              <span className="public-rates-code">{pair.fromCurrency}</span>
              <span className="public-rates-value" data-testid={`rate-${pair.fromCurrency}`}>
                {formatRateValue(pair.rate, { code: pair.toCurrency, decimals: 18 })} {pair.toCurrency}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
