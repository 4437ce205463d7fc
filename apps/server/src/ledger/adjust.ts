import { type AdjustResult, ErrorCode, trimDecimal } from '@coffer/contract';
import { BizError } from '../core/errors.ts';
import { recordOperatorAction } from '../core/operator-audit.ts';
import type { Database } from '../db/client.ts';
import { inTransaction } from '../db/transaction.ts';
import { parseAmount } from './amounts.ts';
import { anyCurrency } from './currencies.ts';
import { requestHash } from './idempotency.ts';
import { rethrowLedgerError } from './sql-errors.ts';

export interface AdjustInput {
  user: { uid: number } | { email: string };
  /** Currency id or code. */
  currency: number | string;
  /** Positive decimal string; `direction` gives the sign. */
  amount: string;
  direction: 'credit' | 'debit';
  reason: string;
  /** Who: the operator's e-mail, or "cli:<os user>". */
  actor: string;
  /** The operator's uid (scopes the idempotency key); null from the command line. */
  actorUserId: number | null;
  idempotencyKey?: string | null;
}

interface AdjustFnRow {
  a_id: number;
  a_entry: number;
  a_amount: string;
  a_balance_after: string;
  a_created: Date | string;
  a_replayed: boolean;
}

/** What an adjustment input names, checked: the user, the currency, the signed amount and the reason. */
export async function resolveAdjustment(database: Database, input: Omit<AdjustInput, 'actor' | 'actorUserId'>) {
  const currency = await anyCurrency(database, input.currency);
  const amount = parseAmount(input.amount, currency, { limits: false });
  const signed = input.direction === 'debit' ? `-${amount}` : amount;
  const reason = input.reason.trim();
  if (!reason) throw new BizError(ErrorCode.INVALID_PARAMS, 'reason');
  if ('uid' in input.user) {
    const rows = await database.sql.query<{ id: number }>('select id from users where id = $1', [input.user.uid]);
    if (!rows[0]) throw new BizError(ErrorCode.RECIPIENT_NOT_FOUND);
    return { uid: input.user.uid, currency, signed, reason };
  }
  const rows = await database.sql.query<{ id: number }>('select id from users where email = $1', [input.user.email.trim().toLowerCase()]);
  if (!rows[0]) throw new BizError(ErrorCode.RECIPIENT_NOT_FOUND);
  return { uid: Number(rows[0].id), currency, signed, reason };
}

/**
 * Credits or debits a user's available balance against the system adjustments account
 * (one round trip to coffer_adjust), recording who and why. The command line
 * (`npm run ledger:adjust`) and POST /api/admin/ledger/adjust both come here.
 */
export async function adjustBalance(database: Database, input: AdjustInput): Promise<AdjustResult> {
  const { uid, currency, signed, reason } = await resolveAdjustment(database, input);
  const key = input.idempotencyKey ?? null;
  const hash = key ? requestHash('ledger.adjust', { uid, currencyId: currency.id, amount: signed, reason }) : null;
  let row: AdjustFnRow | undefined;
  try {
    // The adjustment and its audit-trail row commit together; a replay records nothing new.
    row = await inTransaction(database, async (q) => {
      const [r] = await q<AdjustFnRow & { a_balance_before: string }>(
        'select *, (a_balance_after - a_amount)::text as a_balance_before from coffer_adjust($1, $2, $3::numeric, $4, $5, $6, $7, $8)',
        [uid, currency.id, signed, reason, input.actor, input.actorUserId, key, hash],
      );
      if (r && !r.a_replayed) {
        await recordOperatorAction(q, {
          actorUserId: input.actorUserId,
          actor: input.actor,
          action: 'ledger.adjust',
          targetType: 'user',
          targetId: uid,
          reason,
          before: { currency: currency.code, available: trimDecimal(r.a_balance_before) },
          after: {
            currency: currency.code,
            available: trimDecimal(String(r.a_balance_after)),
            amount: trimDecimal(String(r.a_amount)),
            adjustmentId: Number(r.a_id),
            entryId: Number(r.a_entry),
          },
        });
      }
      return r;
    });
  } catch (e) {
    rethrowLedgerError(e);
  }
  if (!row) throw new Error('coffer_adjust returned no row');
  return {
    adjustmentId: Number(row.a_id),
    entryId: Number(row.a_entry),
    uid,
    currencyId: currency.id,
    code: currency.code,
    amount: trimDecimal(row.a_amount),
    balanceAfter: trimDecimal(row.a_balance_after),
    replayed: row.a_replayed,
  };
}
