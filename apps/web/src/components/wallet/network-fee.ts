import { type CurrencyLike, formatMoney } from '../../lib/amount-format';

/**
 * A network's withdrawal fee on its chip: the currency's display precision, rounded up (what
 * the user pays), grouped, like every amount in a list; the code alone when the currency's
 * record is not at hand (the contract's table then gives the precision).
 */
export function networkFeeText(fee: string, currency: CurrencyLike | string): string {
  return formatMoney(fee, currency, 'up');
}
