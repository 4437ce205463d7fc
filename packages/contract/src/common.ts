import { z } from 'zod';
import {
  AMOUNT_MAX_DECIMALS,
  AMOUNT_MAX_INTEGER_DIGITS,
  AMOUNT_RE,
  DECIMAL_RE,
  isAmountWithinLimits,
  isPositiveAmount,
  isSafeText,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
} from './rules.ts';

export { AMOUNT_MAX_DECIMALS, AMOUNT_MAX_INTEGER_DIGITS, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX };

/** Longest amount text accepted before its digits are judged (NUMERIC(38,18) needs 39 at most). */
const AMOUNT_TEXT_MAX = 64;

/**
 * The one amount schema: the contract's amount grammar (rules AMOUNT_RE: "12.5", "0", "012.50";
 * no sign, exponent or bare point), trimmed. Only the shape: what a value must be beyond it
 * is a refinement below, or the currency's judgement on the server (checkAmount, 3002).
 */
export const amountShape = z.string().trim().max(AMOUNT_TEXT_MAX).regex(AMOUNT_RE, 'amount must be a decimal string like "12.5"');

const WITHIN_LIMITS = `amount is too large or has too many decimals (at most ${AMOUNT_MAX_INTEGER_DIGITS} digits before the point and ${AMOUNT_MAX_DECIMALS} after)`;

/** A zero or positive amount that fits NUMERIC(38,18) (fees, limits where 0 means none). */
export const amountOrZero = amountShape.refine(isAmountWithinLimits, WITHIN_LIMITS);

/**
 * A positive amount that fits NUMERIC(38,18) ("12.5"), judged here (1001). The currency's own
 * decimal limit is checked by the server (3002).
 */
export const amountString = amountOrZero.refine(isPositiveAmount, 'amount must be greater than zero');

/** A signed decimal string as stored in the ledger (postings, balances). */
export const decimalString = z.string().regex(DECIMAL_RE);

/**
 * An id in a JSON body: a JSON integer and nothing else. No coercion: `true`, `"1"`, `"0x1"`,
 * `" 1"`, `"1e0"` and `[1]` are 1001, never uid 1.
 */
export const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * An id in a URL path or query string, where every value is text: plain digits without a
 * leading zero (at most 16, within Number.MAX_SAFE_INTEGER), read as a number. Anything else
 * (`0x1`, `1e0`, ` 1`, `01`, `1.0`, a repeated parameter) is 1001.
 */
export const queryId = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, 'must be a positive integer')
  .transform(Number)
  .pipe(id);
export const idParams = z.object({ id: queryId });

export interface SafeTextOptions {
  /** Longest accepted text after trimming, in UTF-16 units (as `maxLength` in the web app counts). */
  max: number;
  /** Shortest accepted text after trimming; 1 makes the field required to say something. */
  min?: number;
  /** Allow line breaks (\n, \r) inside; tabs and every other control stay refused. */
  multiline?: boolean;
}

/**
 * Every free-text field of the contract (nickname, memo, reason, ...): trimmed, then refused
 * (1001 naming the field) when it contains a character of rules FORBIDDEN_SINGLE_LINE (or, with
 * `multiline`, FORBIDDEN_MULTILINE) or a lone surrogate. The web app validates with the same
 * schemas, so a user hears it before sending.
 */
export function safeText({ max, min = 0, multiline = false }: SafeTextOptions) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((v) => isSafeText(v, multiline), {
      message: multiline
        ? 'must not contain control, invisible or bidirectional characters'
        : 'must be one line without control, invisible or bidirectional characters',
    });
}

export const isoTime = z.string();

/** Paging in a JSON body: JSON integers (no coercion, like `id`). */
export const pageRequest = z.object({
  page: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
  pageSize: z.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export function pageResponse<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export type PageResponse<T> = { list: T[]; total: number; page: number; pageSize: number };

/** Header name for money-moving POSTs; the web app sends one per submit. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const idempotencyKey = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/);
