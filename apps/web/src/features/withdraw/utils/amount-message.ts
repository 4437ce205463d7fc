import type { WithdrawLimits } from '@coffer/contract/chain';
import type { Currency } from '@coffer/contract/ledger';
import type { TFunction } from 'i18next';
import { amountErrorText } from '../../../components/wallet/amount-error';
import { formatMoney } from '../../../lib/amount-format';
import type { WithdrawAmountCheck } from './withdraw-amount';

/**
 * What is wrong with the amount, in words: over today's limit, more than the balance after
 * the fee, or a shape or range error; null when it passes (or no currency is known yet).
 */
export function amountMessage(
  t: TFunction,
  amountCheck: WithdrawAmountCheck,
  currency: Currency | undefined,
  limits: WithdrawLimits | undefined,
  priced: WithdrawLimits | undefined,
  decimals: number,
): string | null {
  if (amountCheck.ok || !currency) return null;
  if (amountCheck.error === 'dailyLimit')
    return t('withdraw.errors.dailyLimit', { amount: formatMoney(limits?.dailyRemaining, currency), code: currency.code });
  if (amountCheck.error === 'balance')
    return t('withdraw.errors.balance', {
      available: formatMoney(limits?.available, currency),
      fee: formatMoney(priced?.fee, currency, 'up'),
      code: currency.code,
    });
  return amountErrorText(t, amountCheck.error, { decimals, min: limits?.min, max: limits?.max }, currency);
}
