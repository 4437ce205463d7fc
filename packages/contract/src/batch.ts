import { z } from 'zod';

/**
 * GET /api/batch?paths=/getCurrentUser,/currency/list: the parameterless GETs of a signed-in
 * page's first screen, answered in one request (decision 069). index.html's inline script asks
 * for them before the app's code has arrived; over HTTP/1.1 a browser has six connections to a
 * server and every request costs a round trip on one of them, so five answers asked apart
 * queued behind the page's files. Only the GETs listed here may be batched: each is answered
 * exactly as if it had been asked alone (same session, language and client address).
 */
export const BATCHABLE_GETS = [
  '/getCurrentUser',
  '/currency/list',
  '/currency/balances',
  '/currency/onchain',
  '/swap/rates',
  '/deposit/getAddressList',
  '/configs',
  '/notice/unread-count',
] as const;

export type BatchableGet = (typeof BATCHABLE_GETS)[number];

/** At most one of each: a longer list repeats a path. */
export const BATCH_MAX_PATHS = BATCHABLE_GETS.length;

/** Characters of the `paths` parameter: every batchable path once, with the commas. */
const BATCH_PATHS_MAX_CHARS = BATCHABLE_GETS.join(',').length;

export const batchQuery = z.object({
  paths: z
    .string()
    .max(BATCH_PATHS_MAX_CHARS)
    .transform((value) => value.split(','))
    .pipe(z.array(z.enum(BATCHABLE_GETS)).min(1).max(BATCH_MAX_PATHS))
    .refine((paths) => new Set(paths).size === paths.length, 'each path once'),
});

/** One GET's answer: its HTTP status and its body (the envelope), as it would have come alone. */
export const batchAnswer = z.object({ status: z.number().int(), body: z.unknown() });
export type BatchAnswer = z.infer<typeof batchAnswer>;

/** The answers by path, in the order asked. */
export const batchAnswers = z.record(z.string(), batchAnswer);
export type BatchAnswers = z.infer<typeof batchAnswers>;
