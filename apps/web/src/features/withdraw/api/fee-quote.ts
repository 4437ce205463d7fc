import type { WithdrawQuoteData } from '@coffer/contract/chain';
import { ErrorCode } from '@coffer/contract/errors';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * A quote is renewed this long before it ends, so the user's tap and the request both land
 * inside it (the server refuses an expired one with 3019; docs/decisions/040).
 */
export const QUOTE_RENEW_BEFORE_MS = 15_000;
/** Never renew more often than this, whatever the clock says. */
const QUOTE_RENEW_MIN_MS = 5_000;

/** Milliseconds until the quote that ends at `expiresAt` should be renewed. */
export function quoteRenewIn(expiresAt: string, now: number = Date.now()): number {
  return Math.max(QUOTE_RENEW_MIN_MS, Date.parse(expiresAt) - now - QUOTE_RENEW_BEFORE_MS);
}

/** POST /api/withdraw/quote: the fee from the chain now, held for a short window; its refusals are not popped up. */
export function quoteWithdrawFee(networkId: number, address: string | null): Promise<WithdrawQuoteData> {
  return apiPost<WithdrawQuoteData>(
    '/withdraw/quote',
    { networkId, ...(address && { address }) },
    // Shown on the page (network unavailable) or already under the address field (its check).
    { fieldCodes: [ErrorCode.CURRENCY_UNAVAILABLE, ErrorCode.INVALID_ADDRESS, ErrorCode.UNSPENDABLE_ADDRESS] },
  );
}

/**
 * The fee quote of the network the form shows (with the destination once it is a valid
 * address: a contract may cost more gas), renewed before it runs out.
 */
export function useWithdrawQuote(networkId: number | undefined, address: string | null, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.withdrawals.quote(networkId ?? 0, address ?? ''),
    queryFn: () => quoteWithdrawFee(networkId!, address),
    enabled: enabled && networkId !== undefined,
    // While the destination's quote loads, the network's last one stays (it holds for any address).
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (query.state.data ? quoteRenewIn(query.state.data.expiresAt) : false),
  });
}
