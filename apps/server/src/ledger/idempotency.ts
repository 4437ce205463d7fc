import crypto from 'node:crypto';
import { ErrorCode } from '@coffer/contract';
import { BizError } from '../core/errors.ts';
import type { Database } from '../db/client.ts';

/*
 * Money-moving POSTs take an Idempotency-Key (docs/product.md §5.9; the HTTP side reads the header, see
 * core/idempotency-key.ts, and passes the key string). The key is scoped to the user; the hash
 * of the request body tells a replay (same body: same answer, no second movement) from a
 * reused key (another body: 3010).
 */

/** A stable hash of the operation: the route plus the canonical JSON of its inputs. */
export function requestHash(operation: string, input: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(input)
      .sort()
      .map((k) => [k, input[k] ?? null]),
  );
  return crypto.createHash('sha256').update(operation).update('\0').update(canonical).digest('hex');
}

/**
 * Business refusals a service gives before its ledger call, and the SQLSTATE the ledger keeps
 * them under (the one it raises for the same refusal). Others (1001, 2001, 2004) are not kept.
 */
const KEPT_BEFORE_LEDGER: Partial<Record<number, string>> = {
  [ErrorCode.AMOUNT_OUT_OF_RANGE]: 'CB002',
  [ErrorCode.CURRENCY_UNAVAILABLE]: 'CB003',
  [ErrorCode.QUOTE_EXPIRED]: 'CB006',
};

/**
 * A key's first final answer is its answer forever, a refusal too (decision 012). The ledger
 * keeps the refusals it gives itself, in the statement that gives them; this keeps one a
 * service gave before reaching the ledger (a refused price, an unavailable pair), one insert
 * on the refused request only. Answers 'kept' (or 'not kept' for an error that is not a kept
 * refusal): answer the error; 'taken': the key got another answer first (a concurrent request
 * with the same key), which the caller answers instead.
 */
export async function keepRefusal(
  database: Database,
  kind: string,
  userId: number,
  key: string,
  hash: string,
  error: unknown,
): Promise<'kept' | 'not kept' | 'taken'> {
  const state = error instanceof BizError ? KEPT_BEFORE_LEDGER[error.bizCode] : undefined;
  if (!state) return 'not kept';
  const [row] = await database.sql.query<{ answer: string }>('select ledger_keep_refusal($1, $2, $3, $4, $5) as answer', [
    kind,
    userId,
    key,
    hash,
    state,
  ]);
  return row?.answer === state ? 'kept' : 'taken';
}

/**
 * Whether the user's key has its answer already (a journal entry, or a refusal kept under it):
 * a replay is answered by the ledger as before and moves nothing, so it needs no new code.
 */
export async function keyAnswered(database: Database, userId: number, key: string): Promise<boolean> {
  const rows = await database.sql.query('select 1 from journal_entries where user_id = $1 and idempotency_key = $2', [userId, key]);
  return rows.length > 0;
}
