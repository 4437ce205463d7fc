import { type AdjustRequest, ErrorCode, trimDecimal } from '@coffer/contract';
import { BizError, notFound } from '../../core/errors.ts';
import { recordOperatorAction } from '../../core/operator-audit.ts';
import type { SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction, type Query } from '../../db/transaction.ts';
import { type AdjustInput, resolveAdjustment } from '../../ledger/adjust.ts';
import { rethrowLedgerError } from '../../ledger/sql-errors.ts';

type Operator = Pick<SessionUser, 'id' | 'email'>;

/** The most requests one list answers (newest first); pending ones are few by nature. */
const REQUEST_LIST_LIMIT = 200;

interface RequestRow {
  id: number;
  user_id: number;
  email: string;
  currency_id: number;
  code: string;
  amount: string;
  reason: string;
  requested_by: number;
  requested_by_email: string;
  requested_at: Date | string;
  status: AdjustRequest['status'];
  decided_by_email: string | null;
  decided_at: Date | string | null;
  decision_reason: string | null;
  entry_id: number | null;
}

const SELECT_REQUEST = `select r.id, r.user_id, u.email, r.currency_id, c.code, r.amount::text as amount, r.reason, r.requested_by,
    r.requested_by_email, r.requested_at, r.status, r.decided_by_email, r.decided_at, r.decision_reason, a.entry_id
  from adjustment_requests r join users u on u.id = r.user_id join currencies c on c.id = r.currency_id
  left join adjustments a on a.id = r.adjustment_id`;

const iso = (v: Date | string) => new Date(v).toISOString();

const toRequest = (r: RequestRow): AdjustRequest => ({
  id: Number(r.id),
  uid: Number(r.user_id),
  email: r.email,
  currencyId: r.currency_id,
  code: r.code,
  amount: trimDecimal(r.amount),
  reason: r.reason,
  requestedBy: r.requested_by_email,
  requestedAt: iso(r.requested_at),
  status: r.status,
  decidedBy: r.decided_by_email,
  decidedAt: r.decided_at === null ? null : iso(r.decided_at),
  decisionReason: r.decision_reason,
  entryId: r.entry_id === null ? null : Number(r.entry_id),
});

/**
 * Whether an adjustment of `signed` in `code` needs a second operator: above the currency's
 * ADJUST_APPROVAL_ABOVE threshold, or any amount of a currency the setting does not list.
 * Compared as numerics in the database, never as JS numbers.
 */
export async function needsSecondOperator(database: Database, thresholds: ReadonlyMap<string, string>, code: string, signed: string) {
  const limit = thresholds.get(code.toUpperCase());
  if (limit === undefined) return true;
  const [row] = await database.sql.query<{ above: boolean }>('select abs($1::numeric) > $2::numeric as above', [signed, limit]);
  return row?.above === true;
}

/**
 * Records an adjustment that waits for a second operator (nothing moves yet), audited. The
 * Idempotency-Key makes a double submit answer the first request.
 */
export async function requestAdjustment(
  database: Database,
  operator: Operator,
  input: Omit<AdjustInput, 'actor' | 'actorUserId'>,
): Promise<AdjustRequest> {
  const { uid, currency, signed, reason } = await resolveAdjustment(database, input);
  const key = input.idempotencyKey ?? null;
  const id = await inTransaction(database, async (q) => {
    const [created] = await q<{ id: number }>(
      `insert into adjustment_requests (user_id, currency_id, amount, reason, requested_by, requested_by_email, idempotency_key)
       values ($1, $2, $3::numeric, $4, $5, $6, $7)
       on conflict (requested_by, idempotency_key) where idempotency_key is not null do nothing returning id`,
      [uid, currency.id, signed, reason, operator.id, operator.email, key],
    );
    if (!created) {
      const [first] = await q<{ id: number }>('select id from adjustment_requests where requested_by = $1 and idempotency_key = $2', [
        operator.id,
        key,
      ]);
      return Number(first?.id);
    }
    await recordOperatorAction(q, {
      actorUserId: operator.id,
      actor: operator.email,
      action: 'ledger.adjust.request',
      targetType: 'user',
      targetId: uid,
      reason,
      before: null,
      after: { requestId: Number(created.id), currency: currency.code, amount: trimDecimal(signed), status: 'pending' },
    });
    return Number(created.id);
  });
  return requestById(database, id);
}

async function requestById(database: Database, id: number): Promise<AdjustRequest> {
  const [row] = await database.sql.query<RequestRow>(`${SELECT_REQUEST} where r.id = $1`, [id]);
  if (!row) throw notFound();
  return toRequest(row);
}

export async function listRequests(database: Database, status: AdjustRequest['status']): Promise<AdjustRequest[]> {
  const rows = await database.sql.query<RequestRow>(
    `${SELECT_REQUEST} where r.status = $1 order by r.id desc limit ${REQUEST_LIST_LIMIT}`,
    [status],
  );
  return rows.map(toRequest);
}

/** Locks a pending request that `operator` may decide: 4004 unknown, 3007 decided, 3041 their own. */
async function lockDecidable(q: Query, operator: Operator, id: number): Promise<RequestRow> {
  const [row] = await q<RequestRow>(`${SELECT_REQUEST} where r.id = $1 for update of r`, [id]);
  if (!row) throw notFound();
  if (row.status !== 'pending') throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
  if (Number(row.requested_by) === operator.id) throw new BizError(ErrorCode.SECOND_OPERATOR_REQUIRED);
  return row;
}

/**
 * A second operator approves: the adjustment is posted (coffer_adjust, actor = the approver,
 * the requester's reason) and the request marked approved with its entry, audited, in one
 * transaction. A debit the balance no longer covers (3001) leaves the request pending.
 */
export async function approveRequest(database: Database, operator: Operator, id: number, decision: string): Promise<AdjustRequest> {
  try {
    await inTransaction(database, async (q) => {
      const row = await lockDecidable(q, operator, id);
      const [posted] = await q<{ a_id: number; a_entry: number; a_balance_after: string }>(
        `select a_id, a_entry, a_balance_after::text as a_balance_after from coffer_adjust($1, $2, $3::numeric, $4, $5, $6, null, null)`,
        [row.user_id, row.currency_id, row.amount, row.reason, `${operator.email} (approving ${row.requested_by_email})`, operator.id],
      );
      await q(
        `update adjustment_requests set status = 'approved', decided_by = $2, decided_by_email = $3, decided_at = now(),
           decision_reason = $4, adjustment_id = $5 where id = $1`,
        [id, operator.id, operator.email, decision, posted?.a_id],
      );
      await recordOperatorAction(q, {
        actorUserId: operator.id,
        actor: operator.email,
        action: 'ledger.adjust.approve',
        targetType: 'user',
        targetId: Number(row.user_id),
        reason: decision,
        before: { requestId: id, status: 'pending', requestedBy: row.requested_by_email },
        after: {
          requestId: id,
          status: 'approved',
          currency: row.code,
          amount: trimDecimal(row.amount),
          entryId: Number(posted?.a_entry),
          available: trimDecimal(String(posted?.a_balance_after)),
        },
      });
    });
  } catch (e) {
    if (e instanceof BizError) throw e;
    rethrowLedgerError(e);
  }
  return requestById(database, id);
}

/** A second operator rejects: nothing moves; the request keeps who asked, who refused and why. */
export async function rejectRequest(database: Database, operator: Operator, id: number, decision: string): Promise<AdjustRequest> {
  await inTransaction(database, async (q) => {
    const row = await lockDecidable(q, operator, id);
    await q(
      `update adjustment_requests set status = 'rejected', decided_by = $2, decided_by_email = $3, decided_at = now(),
         decision_reason = $4 where id = $1`,
      [id, operator.id, operator.email, decision],
    );
    await recordOperatorAction(q, {
      actorUserId: operator.id,
      actor: operator.email,
      action: 'ledger.adjust.reject',
      targetType: 'user',
      targetId: Number(row.user_id),
      reason: decision,
      before: { requestId: id, status: 'pending', requestedBy: row.requested_by_email },
      after: { requestId: id, status: 'rejected', currency: row.code, amount: trimDecimal(row.amount) },
    });
  });
  return requestById(database, id);
}
