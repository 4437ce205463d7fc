import type { Network, WithdrawLimits } from '@coffer/contract/chain';
import type { Currency } from '@coffer/contract/ledger';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/amount-format';
import { formatAmount } from '../../../lib/money';
import type { checkWithdrawAmount } from '../utils/withdraw-amount';

/** Under the amount: what is available, the fee, what arrives, what is held, today's room and the range. */
export function WithdrawAmountRows({
  currency,
  network,
  limits,
  fee,
  check,
}: {
  currency: Currency;
  network: Network;
  limits: WithdrawLimits | undefined;
  /** The quoted fee (docs/decisions/040); undefined until the quote answers. */
  fee: string | undefined;
  check: ReturnType<typeof checkWithdrawAmount>;
}) {
  const { t } = useTranslation();
  const code = currency.code;
  return (
    <div className="mt-2">
      <div className="wallet-row">
        <span>{t('withdraw.available')}</span>
        <span data-testid="withdraw-available">
          {formatMoney(limits?.available ?? null, currency)} {code}
        </span>
      </div>
      <div className="wallet-row">
        <span>{t('bill.fields.fee')}</span>
        <span data-testid="withdraw-fee">
          {fee === undefined ? '--' : formatAmount(fee)} {code}
        </span>
      </div>
      <div className="wallet-row">
        <span>{t('withdraw.receive')}</span>
        <span className="font-semibold" data-testid="withdraw-receive">
          {check.ok ? formatAmount(check.value) : '--'} {code}
        </span>
      </div>
      <div className="wallet-row">
        <span>{t('withdraw.total')}</span>
        <span data-testid="withdraw-total">
          {check.ok && limits && fee !== undefined ? formatAmount(check.total) : '--'} {code}
        </span>
      </div>
      <div className="wallet-row">
        <span>{t('withdraw.dailyRemaining')}</span>
        <span data-testid="withdraw-daily-remaining">
          {t('withdraw.dailyRemainingValue', {
            remaining: formatAmount(limits?.dailyRemaining),
            limit: formatAmount(limits?.dailyLimit ?? network.dailyWithdrawLimit),
            code,
          })}
        </span>
      </div>
      <div className="wallet-muted mt-1" data-testid="withdraw-range">
        {t('withdraw.range', {
          min: formatAmount(limits?.min ?? network.minWithdraw),
          max: formatAmount(limits?.max ?? network.maxWithdraw),
          code,
        })}
      </div>
    </div>
  );
}
