import { z } from 'zod';

/** Largest accepted amount digits before the point: NUMERIC(38,18) leaves 20. */
export const AMOUNT_MAX_INTEGER_DIGITS = 20;
export const AMOUNT_MAX_DECIMALS = 18;
export const PAGE_SIZE_MAX = 100;

const AMOUNT_RE = /^(0|[1-9]\d*)(\.\d+)?$/;

/**
 * A positive decimal amount as a string ("12.5"). The currency's own decimal limit
 * is checked by the server (3002); here only the shape is checked (1001).
 */
export const amountString = z
  .string()
  .trim()
  .regex(AMOUNT_RE, 'amount must be a decimal string like "12.5"')
  .refine((v) => {
    const [int = '', frac = ''] = v.split('.');
    return int.length <= AMOUNT_MAX_INTEGER_DIGITS && frac.length <= AMOUNT_MAX_DECIMALS;
  }, 'amount is too large or has too many decimals')
  .refine((v) => /[1-9]/.test(v), 'amount must be greater than zero');

/** A signed decimal string as stored in the ledger (postings, balances). */
export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/);

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

/**
 * Characters refused in every free-text field: C0 controls except where `multiline` allows
 * line breaks, DEL and C1 controls; bidirectional embeddings, overrides, isolates and marks
 * (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C); zero-width characters (U+200B–U+200D,
 * U+2060, U+FEFF); line and paragraph separators (U+2028, U+2029); invisible tag characters
 * (U+E0000–U+E007F, as a surrogate pair). A NUL cannot be stored in PostgreSQL text at all; the
 * rest make text display otherwise than it is stored (reordered, hidden or spoofed names).
 * Note that U+200D (zero-width joiner) also joins emoji sequences; those are refused too.
 */
const FORBIDDEN_SINGLE_LINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u2028\u2029\ufeff]|\udb40[\udc00-\udc7f]/;
const FORBIDDEN_MULTILINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u2028\u2029\ufeff]|\udb40[\udc00-\udc7f]/;
/** A surrogate half without its partner: not text (it would be stored as U+FFFD). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

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
 * (1001 naming the field) when it contains a character of FORBIDDEN_SINGLE_LINE (or, with
 * `multiline`, FORBIDDEN_MULTILINE) or a lone surrogate. The web app validates with the same
 * schemas, so a user hears it before sending.
 */
export function safeText({ max, min = 0, multiline = false }: SafeTextOptions) {
  const forbidden = multiline ? FORBIDDEN_MULTILINE : FORBIDDEN_SINGLE_LINE;
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((v) => !forbidden.test(v) && !LONE_SURROGATE.test(v), {
      message: multiline
        ? 'must not contain control, invisible or bidirectional characters'
        : 'must be one line without control, invisible or bidirectional characters',
    });
}

export const isoTime = z.string();

/** Paging in a JSON body: JSON integers (no coercion, like `id`). */
export const pageRequest = z.object({
  page: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
  pageSize: z.number().int().min(1).max(PAGE_SIZE_MAX).default(20),
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
export const idempotencyKey = z.string().min(8).max(128).regex(/^[A-Za-z0-9_.:-]+$/);
