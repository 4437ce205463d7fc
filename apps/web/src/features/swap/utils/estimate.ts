import { estimateSwap } from '@coffer/contract/rules';
import type { SwapPair } from '@coffer/contract/swap';

/**
 * What the swap page shows before a quote for selling `amount` (a checked decimal string):
 * the server's pricing at the pair's current rate, so the quote says the same. Null when
 * nothing would be received (the server refuses that amount).
 */
export function swapEstimate(
  amount: string,
  pair: Pick<SwapPair, 'rate' | 'feeBps' | 'feeCurrencyId' | 'toCurrencyId'>,
  /** The places results round to: each currency's display precision (displayDecimals). */
  fromDecimals: number,
  toDecimals: number,
): { receive: string; fee: string } | null {
  const result = estimateSwap(amount, {
    rate: pair.rate,
    feeBps: pair.feeBps,
    feeInTo: pair.feeCurrencyId === pair.toCurrencyId,
    fromDecimals,
    toDecimals,
  });
  return result.receive.startsWith('-') || result.receive === '0' ? null : result;
}
