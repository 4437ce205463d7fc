import type { TFunction } from 'i18next';
import { type CurrencyLike, formatMoney } from '../../lib/amount-format';
import type { AmountError, AmountRules } from '../../lib/amount-input';

/**
 * The message under an amount field for a checkAmountInput error. Its amounts read like every
 * other amount on screen (the currency's display precision, docs/decisions/053): "1,900 USDT
 * available" under "Available 1,900 USDT", never the exact "1,900.005". A minimum rounds up,
 * so what it names is always enough.
 */
export function amountErrorText(t: TFunction, error: AmountError, rules: AmountRules, currency: CurrencyLike): string {
  return t(`wallet.amountErrors.${error}`, {
    decimals: rules.decimals,
    min: formatMoney(rules.min ?? null, currency, 'up'),
    max: formatMoney(rules.max ?? null, currency),
    available: formatMoney(rules.available ?? null, currency),
    code: currency.code,
  });
}
