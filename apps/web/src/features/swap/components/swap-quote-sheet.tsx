import type { Currency } from '@coffer/contract/ledger';
import type { SwapQuoteData } from '@coffer/contract/swap';
import { Button, Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Amount } from '../../../components/wallet/amount';
import { formatNaturalRate } from '../../../lib/amount-format';

export interface SwapQuoteSheetProps {
  quote: SwapQuoteData | null;
  visible: boolean;
  from?: Currency;
  to?: Currency;
  feeCurrency?: Currency;
  secondsLeft: number;
  expired: boolean;
  requesting: boolean;
  applying: boolean;
  onCancel: () => void;
  onRequote: () => void;
  onConfirm: () => void;
}

/** The held price with its countdown: confirm while it lasts, ask again once it is gone. */
export function SwapQuoteSheet(props: SwapQuoteSheetProps) {
  const { quote, from, to, feeCurrency, expired, applying } = props;
  const { t } = useTranslation();
  return (
    <Popup visible={props.visible} onMaskClick={() => !applying && props.onCancel()} bodyClassName="wallet-popup" destroyOnClose>
      {quote ? (
        <div data-testid="swap-quote-panel">
          <h3 className="wallet-popup-title">{t('swap.quoteTitle')}</h3>
          <div className="wallet-big-amount">
            <Amount value={quote.toAmount} code={to?.code ?? ''} testId="quote-receive" />
          </div>
          <div className="wallet-row">
            <span>{t('swap.pay')}</span>
            <Amount value={quote.fromAmount} code={from?.code ?? ''} rounding="up" testId="quote-pay" />
          </div>
          <div className="wallet-row">
            <span>{t('swap.rate')}</span>
            <span data-testid="quote-rate">{from && to ? formatNaturalRate(quote.rate, from, to) : '--'}</span>
          </div>
          <div className="wallet-row">
            <span>{t('swap.fee')}</span>
            <Amount value={quote.fee} code={feeCurrency?.code ?? ''} rounding="up" testId="quote-fee" />
          </div>
          <div className={`swap-countdown${expired ? ' swap-countdown--expired' : ''}`} data-testid="quote-countdown">
            {expired ? t('swap.quoteExpired') : t('swap.quoteValid', { seconds: props.secondsLeft })}
          </div>
          <div className="mt-4 flex gap-3">
            <Button block size="large" disabled={applying} onClick={props.onCancel}>
              {t('common.cancel')}
            </Button>
            {expired ? (
              <Button block color="primary" size="large" loading={props.requesting} onClick={props.onRequote} data-testid="swap-requote">
                {t('swap.requote')}
              </Button>
            ) : (
              <Button block color="primary" size="large" loading={applying} onClick={props.onConfirm} data-testid="swap-confirm">
                {t('swap.confirm')}
              </Button>
            )}
          </div>
        </div>
      ) : null}
    </Popup>
  );
}
