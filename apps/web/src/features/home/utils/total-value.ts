import { addAmounts, divideAmounts, isZeroAmount, multiplyAmounts } from '../../../lib/money';

/** The currency the home screen values the wallet in. */
export const REFERENCE_CURRENCY = 'USDT';

/** The parts of a balance and of a swap pair that the total needs (contract Balance, SwapPair). */
export interface BalanceLike {
  code: string;
  total: string;
}

export interface PairLike {
  fromCurrency: string;
  toCurrency: string;
  rate: string;
}

export interface TotalValue {
  /** Sum of every priced balance, in the reference currency, cut to its decimals. */
  total: string;
  /** Codes with a non-zero balance and no rate to or from the reference: left out of the total. */
  unpriced: string[];
}

/**
 * The worth of one balance in the reference currency, cut to `decimals` (toward the house),
 * or null when no rate prices it: X -> ref pairs multiply, ref -> X pairs divide.
 */
export function valueIn(balance: BalanceLike, pairs: readonly PairLike[], reference: string, decimals: number): string | null {
  if (balance.code === reference) return multiplyAmounts(balance.total, '1', decimals);
  const direct = pairs.find((p) => p.fromCurrency === balance.code && p.toCurrency === reference);
  if (direct && !isZeroAmount(direct.rate)) return multiplyAmounts(balance.total, direct.rate, decimals);
  const inverse = pairs.find((p) => p.fromCurrency === reference && p.toCurrency === balance.code);
  if (inverse && !isZeroAmount(inverse.rate)) return divideAmounts(balance.total, inverse.rate, decimals);
  return null;
}

/**
 * The worth of a wallet in one reference currency (USDT on the home screen), from the
 * public swap rates. Each term is cut to `decimals` before adding, so the figure never
 * shows more than the user could get.
 */
export function totalValue(balances: readonly BalanceLike[], pairs: readonly PairLike[], reference: string, decimals: number): TotalValue {
  const terms: string[] = [];
  const unpriced: string[] = [];
  for (const balance of balances) {
    if (isZeroAmount(balance.total)) continue;
    const value = valueIn(balance, pairs, reference, decimals);
    if (value === null) unpriced.push(balance.code);
    else terms.push(value);
  }
  return { total: terms.length ? addAmounts(...terms) : '0', unpriced };
}
