import type { TFunction } from 'i18next';
import type { AmountError, AmountRules } from '../../lib/amount-input';
import { formatAmount } from '../../lib/money';

/** The message under an amount field for a checkAmountInput error. */
export function amountErrorText(t: TFunction, error: AmountError, rules: AmountRules, code: string): string {
  return t(`wallet.amountErrors.${error}`, {
    decimals: rules.decimals,
    min: formatAmount(rules.min ?? null),
    max: formatAmount(rules.max ?? null),
    available: formatAmount(rules.available ?? null),
    code,
  });
}
