import type { Currency } from '@coffer/contract/ledger';
import type { SwapPair } from '@coffer/contract/swap';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNaturalRate } from '../../../lib/amount-format';
import { percentFromBps } from '../utils/percent';

/** The pair's rate, fee and limits, or that there is no such pair. */
export function SwapPairInfo({ pair, from, to }: { pair: SwapPair | undefined; from?: Currency; to?: Currency }) {
  const { t } = useTranslation();
  return (
    <div className="wallet-card" data-testid="swap-pair-info">
      {pair && from && to ? (
        <>
          <div className="wallet-row">
            <span>{t('swap.rate')}</span>
            <span data-testid="swap-rate">{formatNaturalRate(pair.rate, from, to)}</span>
          </div>
          <div className="wallet-row">
            <span>{t('swap.fee')}</span>
            <span>{percentFromBps(pair.feeBps)}</span>
          </div>
          <div className="wallet-row">
            <span>{t('swap.limits')}</span>
            <span>
              {formatMoney(pair.minAmount, from, 'up')} – {formatMoney(pair.maxAmount, from)} {from.code}
            </span>
          </div>
        </>
      ) : (
        <div className="wallet-muted">{t('swap.noPair')}</div>
      )}
    </div>
  );
}
