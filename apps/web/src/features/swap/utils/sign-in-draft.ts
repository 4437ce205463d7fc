import { loginPath } from '../../../lib/sign-in-return';

/**
 * The swap form as typed before signing in (decision 021): carried in the return path's
 * query, read once when /swap opens again. Nothing secret, and a reload keeps it.
 */
export interface SwapDraft {
  fromId?: number;
  toId?: number;
  amount: string;
}

/** Longer than any amount the keypad lets through (digits, one point, decimals). */
const MAX_DRAFT_AMOUNT_CHARS = 40;
const AMOUNT_RE = /^\d+(\.\d*)?$/;
const ID_RE = /^[1-9]\d{0,8}$/;

function idFrom(raw: string | null): number | undefined {
  return raw && ID_RE.test(raw) ? Number(raw) : undefined;
}

/** What the query of /swap carries; anything malformed is dropped, not trusted. */
export function readSwapDraft(search: string): SwapDraft {
  const params = new URLSearchParams(search);
  const amount = params.get('amount') ?? '';
  return {
    fromId: idFrom(params.get('from')),
    toId: idFrom(params.get('to')),
    amount: amount.length <= MAX_DRAFT_AMOUNT_CHARS && AMOUNT_RE.test(amount) ? amount : '',
  };
}

/** The sign-in page, told to come back to /swap with this draft filled in. */
export function swapLoginPath(draft: SwapDraft): string {
  const params = new URLSearchParams();
  if (draft.fromId !== undefined) params.set('from', String(draft.fromId));
  if (draft.toId !== undefined) params.set('to', String(draft.toId));
  if (draft.amount) params.set('amount', draft.amount);
  const query = params.toString();
  return loginPath(query ? `/swap?${query}` : '/swap');
}
