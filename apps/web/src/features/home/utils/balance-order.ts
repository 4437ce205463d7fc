import { isZeroAmount, subtractAmounts } from '../../../lib/money';
import { type PairLike, valueIn } from './total-value';

export interface OrderedBalance {
  code: string;
  total: string;
  currencyId: number;
}

/**
 * Home's balance list: what the user holds first, the most valuable on top (worth in the
 * reference currency), then what has no price, then the zeros; ties and the zeros keep the
 * currency list's order (`rank`, the operator's sort), so the list never reshuffles between
 * refreshes for no reason. Exact: amounts are compared as decimal strings, never numbers.
 */
export function orderBalances<B extends OrderedBalance>(
  balances: readonly B[],
  rank: (currencyId: number) => number,
  pairs: readonly PairLike[],
  reference: string,
  decimals: number,
): B[] {
  const worth = new Map(balances.map((b) => [b.currencyId, isZeroAmount(b.total) ? null : valueIn(b, pairs, reference, decimals)]));
  const tier = (b: B) => (isZeroAmount(b.total) ? 2 : worth.get(b.currencyId) === null ? 1 : 0);
  return [...balances].sort((a, b) => {
    const byTier = tier(a) - tier(b);
    if (byTier !== 0) return byTier;
    if (tier(a) === 0) {
      const difference = subtractAmounts(worth.get(b.currencyId) as string, worth.get(a.currencyId) as string);
      if (!isZeroAmount(difference)) return difference.startsWith('-') ? -1 : 1;
    }
    return rank(a.currencyId) - rank(b.currencyId);
  });
}
