import type { SwapApplyData, SwapQuoteBody, SwapQuoteData } from '@coffer/contract/swap';
import { useRef, useState } from 'react';
import { isApiError } from '@coffer/api-client/api-error';
import { fieldErrorOf } from '../../../lib/form-errors';
import { newIdempotencyKey } from '@coffer/api-client/idempotency';
import type { StepUp } from '../../../lib/step-up';
import { useApplySwap } from '../api/apply-swap';
import { useQuote } from '../api/get-quote';
import { SWAP_AMOUNT_ERRORS, SWAP_APPLY_ERRORS } from '../api/swap-fields';
import { QUOTE_TTL_SECONDS, quoteDeadline, useSecondsLeft } from './use-deadline';

interface HeldQuote {
  data: SwapQuoteData;
  /** Local epoch ms when the price lapses (see quoteDeadline). */
  deadline: number;
}

/**
 * A quote and the swap at its price: asks for the quote, counts it down, applies it once
 * with its own Idempotency-Key. A refusal about the amount goes to `onAmountRefused`
 * (shown under the field); an expired quote shows as expired in the sheet.
 */
export function useSwapQuote(onAmountRefused: (message: string) => void, stepUp: StepUp) {
  const quote = useQuote();
  const apply = useApplySwap();
  const [held, setHeld] = useState<HeldQuote | null>(null);
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<SwapApplyData | null>(null);
  const idempotencyKey = useRef<string | null>(null);

  const secondsLeft = useSecondsLeft(held?.deadline ?? null);
  const expired = held !== null && secondsLeft === 0;

  /** The form changed: the held price no longer matches it. */
  const drop = () => {
    setHeld(null);
    idempotencyKey.current = null;
  };

  const request = async (body: SwapQuoteBody) => {
    try {
      const data = await quote.mutateAsync(body);
      setHeld({ data, deadline: quoteDeadline(data.expiresAt, QUOTE_TTL_SECONDS) });
      idempotencyKey.current = newIdempotencyKey();
      setOpen(true);
    } catch (error) {
      // Other refusals and transport failures were popped up by the HTTP layer.
      const inline = fieldErrorOf(error, SWAP_AMOUNT_ERRORS);
      if (inline) onAmountRefused(inline.message);
    }
  };

  const confirm = async () => {
    if (!held || expired || !idempotencyKey.current) return;
    const { data } = held;
    try {
      const proof = await stepUp.proof();
      const done = await apply.mutateAsync({
        body: {
          fromCurrencyId: data.fromCurrencyId,
          toCurrencyId: data.toCurrencyId,
          amount: data.fromAmount,
          quoteId: data.quoteId,
          ...proof,
        },
        idempotencyKey: idempotencyKey.current,
      });
      setOpen(false);
      drop();
      setResult(done);
      stepUp.reset();
    } catch (error) {
      // The second factor (decision 033): asked again under its field; the quote still holds.
      if (stepUp.refuse(error)) {
        setOpen(false);
        return;
      }
      if (!isApiError(error)) return;
      const inline = fieldErrorOf(error, SWAP_APPLY_ERRORS);
      if (inline?.field === 'quote') {
        // The price is gone: show the quote as expired so a new one can be asked for.
        setHeld((previous) => (previous ? { ...previous, deadline: Date.now() } : previous));
        idempotencyKey.current = null;
        return;
      }
      setOpen(false);
      drop();
      if (inline?.field === 'amount') onAmountRefused(inline.message);
    }
  };

  return {
    held: held?.data ?? null,
    open: open && held !== null,
    close: () => setOpen(false),
    secondsLeft,
    expired,
    requesting: quote.isPending,
    applying: apply.isPending,
    request,
    confirm,
    drop,
    result,
    clearResult: () => setResult(null),
  };
}
