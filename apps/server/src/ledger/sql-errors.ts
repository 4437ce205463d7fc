import { ErrorCode } from '@coffer/contract';
import { BizError } from '../core/errors.ts';

/** SQLSTATEs raised by the ledger SQL functions (see drizzle/0002_ledger_core_functions.sql and
 * 0005_transfer_functions.sql). */
const LEDGER_SQLSTATES: Record<string, BizError['bizCode']> = {
  CB001: ErrorCode.INSUFFICIENT_BALANCE,
  CB002: ErrorCode.AMOUNT_OUT_OF_RANGE,
  CB003: ErrorCode.CURRENCY_UNAVAILABLE,
  CB004: ErrorCode.RECIPIENT_NOT_FOUND,
  CB005: ErrorCode.CANNOT_SEND_TO_SELF,
  CB006: ErrorCode.QUOTE_EXPIRED,
  CB007: ErrorCode.NOT_ALLOWED_IN_STATE,
  CB008: ErrorCode.INVALID_ADDRESS,
  CB009: ErrorCode.LIMIT_EXCEEDED,
  CB012: ErrorCode.PAYOUTS_FROZEN,
  CB010: ErrorCode.IDEMPOTENCY_KEY_REUSED,
  CB011: ErrorCode.HOUSE_LIMIT_REACHED,
  // The withdrawal fee quote (docs/decisions/040).
  CB019: ErrorCode.FEE_QUOTE_EXPIRED,
  CB020: ErrorCode.FEE_QUOTE_USED,
  CB021: ErrorCode.FEE_QUOTE_UNKNOWN,
  CB022: ErrorCode.FEE_QUOTE_OTHER_NETWORK,
  // Four eyes on a withdrawal: the operator who approved first may not approve again (decision 044).
  CB041: ErrorCode.SECOND_OPERATOR_REQUIRED,
  // numeric_value_out_of_range: a balance would pass NUMERIC(38,18).
  '22003': ErrorCode.AMOUNT_OUT_OF_RANGE,
};

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * The SQLSTATE of a database error, the one reader of it in the server. Drizzle wraps driver
 * errors (the SQLSTATE is then on the cause); a driver error carries it itself. Only a code of
 * SQLSTATE's shape counts, so Node's own codes (ECONNRESET) are not taken for one.
 */
export function sqlState(e: unknown): string | undefined {
  const err = e as { code?: unknown; cause?: { code?: unknown } } | null | undefined;
  for (const code of [err?.code, err?.cause?.code]) {
    if (typeof code === 'string' && SQLSTATE.test(code)) return code;
  }
  return undefined;
}

/** Maps a business SQLSTATE to its BizError; anything else is rethrown as a fault. */
export function rethrowLedgerError(e: unknown): never {
  const state = sqlState(e);
  const code = state ? LEDGER_SQLSTATES[state] : undefined;
  if (code) throw new BizError(code);
  throw e;
}
