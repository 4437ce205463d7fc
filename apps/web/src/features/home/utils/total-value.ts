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
 * The worth of a wallet in one reference currency (USDT on the home screen), from the
 * public swap rates: X -> ref pairs multiply, ref -> X pairs divide. Each term is cut to
 * `decimals` before adding, so the figure never shows more than the user could get.
 */
export function totalValue(
  balances: readonly BalanceLike[],
  pairs: readonly PairLike[],
  reference: string,
  decimals: number,
): TotalValue {
  const terms: string[] = [];
  const unpriced: string[] = [];
  for (const balance of balances) {
    if (isZeroAmount(balance.total)) continue;
    if (balance.code === reference) {
      terms.push(multiplyAmounts(balance.total, '1', decimals));
      continue;
    }
    const direct = pairs.find((p) => p.fromCurrency === balance.code && p.toCurrency === reference);
    if (direct && !isZeroAmount(direct.rate)) {
      terms.push(multiplyAmounts(balance.total, direct.rate, decimals));
      continue;
    }
    const inverse = pairs.find((p) => p.fromCurrency === reference && p.toCurrency === balance.code);
    if (inverse && !isZeroAmount(inverse.rate)) {
      terms.push(divideAmounts(balance.total, inverse.rate, decimals));
      continue;
    }
    unpriced.push(balance.code);
  }
  return { total: terms.length ? addAmounts(...terms) : '0', unpriced };
}
