import type { SwapQuoteBody, SwapQuoteData } from '@coffer/contract/swap';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

/** POST /api/swap/quote: a price held for SWAP_QUOTE_TTL_SECONDS (signed in). */
export function getQuote(body: SwapQuoteBody): Promise<SwapQuoteData> {
  return apiPost<SwapQuoteData>('/swap/quote', body);
}

export function useQuote() {
  return useMutation({ mutationFn: getQuote });
}
