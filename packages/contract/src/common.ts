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

export const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const idParams = z.object({ id });

export const isoTime = z.string();

export const pageRequest = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(20),
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
