import type { Network, WithdrawLimits } from '@coffer/contract/chain';
import type { Currency } from '@coffer/contract/ledger';
import { useTranslation } from 'react-i18next';
import { Amount, useMoneyText } from '../../../components/wallet/amount';
import { formatMoney } from '../../../lib/amount-format';
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
  const money = useMoneyText();
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
        {fee === undefined ? (
          <span data-testid="withdraw-fee">-- {code}</span>
        ) : (
          <Amount value={fee} code={code} rounding="up" testId="withdraw-fee" />
        )}
      </div>
      <div className="wallet-row">
        <span>{t('withdraw.receive')}</span>
        {check.ok ? (
          <Amount value={check.value} code={code} className="font-semibold" testId="withdraw-receive" />
        ) : (
          <span className="font-semibold" data-testid="withdraw-receive">
            -- {code}
          </span>
        )}
      </div>
      <div className="wallet-row">
        <span>{t('withdraw.total')}</span>
        {check.ok && limits && fee !== undefined ? (
          <Amount value={check.total} code={code} rounding="up" testId="withdraw-total" />
        ) : (
          <span data-testid="withdraw-total">-- {code}</span>
        )}
      </div>
      <div className="wallet-row">
        <span>{t('withdraw.dailyRemaining')}</span>
        <span data-testid="withdraw-daily-remaining">
          {t('withdraw.dailyRemainingValue', {
            remaining: limits ? money(limits.dailyRemaining, code) : '--',
            limit: money(limits?.dailyLimit ?? network.dailyWithdrawLimit, code),
            code,
          })}
        </span>
      </div>
      <div className="wallet-muted mt-1" data-testid="withdraw-range">
        {t('withdraw.range', {
          // The range's ends round inward: a shown minimum is never below the real one, a maximum never above.
          min: money(limits?.min ?? network.minWithdraw, code, 'up'),
          max: money(limits?.max ?? network.maxWithdraw, code),
          code,
        })}
      </div>
    </div>
  );
}
