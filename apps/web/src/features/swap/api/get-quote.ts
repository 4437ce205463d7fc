import type { SwapQuoteBody, SwapQuoteData } from '@coffer/contract/swap';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { fieldCodesOf } from '../../../lib/form-errors';
import { SWAP_AMOUNT_ERRORS } from './swap-fields';

/** POST /api/swap/quote: a price held for SWAP_QUOTE_TTL_SECONDS (signed in). */
export function getQuote(body: SwapQuoteBody): Promise<SwapQuoteData> {
  return apiPost<SwapQuoteData>('/swap/quote', body, { fieldCodes: fieldCodesOf(SWAP_AMOUNT_ERRORS) });
}

export function useQuote() {
  return useMutation({ mutationFn: getQuote });
}
