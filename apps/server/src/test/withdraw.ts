import type { WithdrawApplyData, WithdrawQuoteData } from '@coffer/contract';
import type { Call, CallOptions, Client } from './users.ts';

/** A quote id no quote has: in a bad-input case the apply's own checks answer before the quote's. */
export const NO_QUOTE = 2_147_483_647;

/** POST /api/withdraw/quote for a network; null when refused. */
export async function feeQuote(call: Client, token: string, networkId: number, lang?: string): Promise<WithdrawQuoteData | null> {
  const q = await call<WithdrawQuoteData>('POST', '/api/withdraw/quote', { token, lang, body: { networkId } });
  return q.code === 0 ? q.data : null;
}

/**
 * POST /api/withdraw/apply as the app sends it: a fee quote for the body's network first
 * (docs/decisions/040), unless the body names its own quoteId. When the quote is refused (a
 * bad network in a bad-input case) the apply goes with NO_QUOTE, so the apply's refusal shows.
 * The quote needs a chain: tests that withdraw run with `createTestApp(env, { chain: true })`.
 */
export async function applyWithdraw<T = WithdrawApplyData>(
  call: Client,
  opts: CallOptions & { body: Record<string, unknown> },
): Promise<Call<T>> {
  let body = opts.body;
  if (!('quoteId' in body)) {
    const networkId = body.networkId;
    const q = typeof networkId === 'number' && opts.token ? await feeQuote(call, opts.token, networkId, opts.lang) : null;
    body = { ...body, quoteId: q?.quoteId ?? NO_QUOTE };
  }
  return call<T>('POST', '/api/withdraw/apply', { ...opts, body });
}
