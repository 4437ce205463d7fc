import type { Currency } from '@coffer/contract/ledger';
import type { SwapApplyData } from '@coffer/contract/swap';
import { Button, Result } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatMoney } from '../../../lib/amount-format';

/** After the swap: what was paid and received, the way to its record, and another swap. */
export function SwapSuccess({
  result,
  currencyOf,
  onAgain,
}: {
  result: SwapApplyData;
  currencyOf: (code: string) => Currency | undefined;
  onAgain: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="wallet-page" data-testid="swap-success">
      <Result
        status="success"
        title={t('swap.done')}
        description={t('swap.doneDetail', {
          from: `${formatMoney(result.fromAmount, currencyOf(result.fromCurrency))} ${result.fromCurrency}`,
          to: `${formatMoney(result.toAmount, currencyOf(result.toCurrency))} ${result.toCurrency}`,
        })}
      />
      <Button
        block
        color="primary"
        size="large"
        onClick={() => navigate(`/bill/detail?type=swap&id=${result.id}`)}
        data-testid="swap-view-bill"
      >
        {t('swap.viewBill')}
      </Button>
      <Button block size="large" onClick={onAgain}>
        {t('swap.again')}
      </Button>
    </div>
  );
}
