import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useMoneyText } from '../../../components/wallet/amount';
import type { FeeQuote } from '../hooks/use-fee-quote';

/**
 * What the user must know about the fee before the code step: it changed when the quote was
 * renewed, network fees are above the cap (the payout waits for them to fall), or no quote
 * could be had (the network is unavailable) with a retry.
 */
export function WithdrawFeeNotes({ feeQuote, code, failed = true }: { feeQuote: FeeQuote; code: string; failed?: boolean }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  const { quote, data, change } = feeQuote;
  return (
    <>
      {change ? (
        <div className="chain-warning mt-2" role="status" data-testid="withdraw-fee-changed">
          {t('withdraw.feeChanged', { from: money(change.from, code, 'up'), to: money(change.to, code, 'up'), code })}
        </div>
      ) : null}
      {data?.feesHigh ? (
        <div className="chain-warning mt-2" role="status" data-testid="withdraw-fees-high">
          {t('withdraw.feesHigh')}
        </div>
      ) : null}
      {failed && quote.isError && !data ? (
        <div className="chain-warning mt-2 flex items-center justify-between gap-2" role="alert" data-testid="withdraw-quote-failed">
          <span>{t('withdraw.quoteFailed')}</span>
          <Button size="small" color="primary" fill="outline" className="chain-action" onClick={() => void quote.refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      ) : null}
    </>
  );
}
