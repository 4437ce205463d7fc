import type {
  PageResponse,
  WithdrawApplyBody,
  WithdrawApplyData,
  WithdrawLimits,
  WithdrawListBody,
  WithdrawRecord,
} from '@coffer/contract';
import { ErrorCode, WITHDRAW_CANCELLABLE } from '@coffer/contract';
import { sql } from 'drizzle-orm';
import { BizError, notFound } from '../../core/errors.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import type { SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { formatAmount, parseAmount } from '../../ledger/amounts.ts';
import { keyAnswered, requestHash } from '../../ledger/idempotency.ts';
import { rethrowLedgerError } from '../../ledger/sql-errors.ts';
import { checkEmailCode, consumeEmailCode } from '../auth/index.ts';
import { requireStepUp } from '../two-factor/index.ts';
import { confirmationsOf } from '../deposits/index.ts';
import { assertNoHold } from '../holds/index.ts';
import { networkFor } from '../networks/index.ts';
import { type AddressRules, assertBookAllows, payableDestination } from '../address-book/index.ts';

export type { AddressRules } from '../address-book/index.ts';

interface RawWithdrawal {
  id: number;
  currency_id: number;
  code: string;
  network_id: number;
  network_name: string;
  address: string;
  amount: string;
  fee: string;
  memo: string | null;
  status: WithdrawRecord['status'];
  tx_hash: string | null;
  block_number: number | null;
  head: number | null;
  required: number;
  reason: string | null;
  wait_reason: WithdrawRecord['waitReason'];
  wait_since: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  completed_at: Date | string | null;
  reference: number | string;
}

const SELECT_WITHDRAWALS = `
  select w.id, w.currency_id, c.code, w.network_id, n.name as network_name, w.address, w.amount::text, w.fee::text, w.memo,
         w.status, w.tx_hash, w.block_number, cur.block_number as head, n.confirmations as required, w.reason,
         w.wait_reason, w.wait_since, w.created_at, w.updated_at, w.completed_at,
         (select we.entry_id from withdrawal_entries we where we.withdrawal_id = w.id and we.kind = 'withdraw_hold') as reference
  from withdrawals w join networks n on n.id = w.network_id join currencies c on c.id = w.currency_id
  left join chain_cursors cur on cur.chain_id = n.chain_id`;

const iso = (v: Date | string) => new Date(v).toISOString();

/** amount + fee, exactly: both are NUMERIC strings, summed in SQL-free decimal arithmetic. */
function addDecimals(a: string, b: string): string {
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const units = (s: string) => {
    const [i = '0', f = ''] = s.split('.');
    return BigInt(i + f.padEnd(scale, '0'));
  };
  const sum = (units(a) + units(b)).toString().padStart(scale + 1, '0');
  return formatAmount(scale ? `${sum.slice(0, -scale)}.${sum.slice(-scale)}` : sum);
}

function toRecord(r: RawWithdrawal): WithdrawRecord {
  const mined = r.block_number !== null && ['confirming', 'completed'].includes(r.status);
  return {
    id: r.id,
    currencyId: r.currency_id,
    code: r.code,
    networkId: r.network_id,
    networkName: r.network_name,
    address: r.address,
    amount: formatAmount(r.amount),
    fee: formatAmount(r.fee),
    total: addDecimals(r.amount, r.fee),
    memo: r.memo,
    status: r.status,
    txHash: r.tx_hash,
    confirmations: mined ? confirmationsOf(r.status, r.block_number ?? 0, r.head, r.required) : 0,
    confirmationsRequired: r.required,
    reason: r.reason,
    waitReason: r.status === 'queued' ? r.wait_reason : null,
    waitSince: r.status === 'queued' && r.wait_since !== null ? iso(r.wait_since) : null,
    // The hold entry: the number every statement line of this withdrawal carries.
    reference: Number(r.reference),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    completedAt: r.completed_at === null ? null : iso(r.completed_at),
  };
}

export async function withdrawalRecord(database: Database, id: number, userId?: number): Promise<WithdrawRecord> {
  const [row] =
    userId === undefined
      ? await database.sql.query<RawWithdrawal>(`${SELECT_WITHDRAWALS} where w.id = $1`, [id])
      : await database.sql.query<RawWithdrawal>(`${SELECT_WITHDRAWALS} where w.id = $1 and w.user_id = $2`, [id, userId]);
  if (!row) throw notFound();
  return toRecord(row);
}

export async function withdrawalPage(database: Database, userId: number, body: WithdrawListBody): Promise<PageResponse<WithdrawRecord>> {
  const { page, pageSize, currencyId, status } = body;
  const where = 'where w.user_id = $1 and ($2::int is null or w.currency_id = $2) and ($3::text is null or w.status = $3)';
  const params = [userId, currencyId ?? null, status ?? null];
  const [rows, count] = await Promise.all([
    database.sql.query<RawWithdrawal>(`${SELECT_WITHDRAWALS} ${where} order by w.id desc limit $4 offset $5`, [
      ...params,
      pageSize,
      (page - 1) * pageSize,
    ]),
    database.sql.query<{ n: number }>(`select count(*)::int as n from withdrawals w ${where}`, params),
  ]);
  return { list: rows.map(toRecord), total: count[0]?.n ?? 0, page, pageSize };
}

/** The minimum fee (the quote's floor), bounds and what is left of today's limit, for the withdraw screen. */
export async function withdrawLimits(database: Database, userId: number, networkId: number): Promise<WithdrawLimits> {
  const net = await networkFor(database, networkId);
  const [row] = await database.sql.query<{ today: string; available: string | null }>(
    `select coalesce((select sum(amount) from withdrawals where user_id = $1 and network_id = $2
              and created_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'
              and status not in ('failed', 'cancelled', 'rejected')), 0)::text as today,
            (select balance::text from accounts where user_id = $1 and currency_id = $3 and kind = 'available') as available`,
    [userId, networkId, net.currencyId],
  );
  const remaining = await database.sql.query<{ r: string }>('select greatest($1::numeric - $2::numeric, 0)::text as r', [
    net.dailyWithdrawLimit,
    row?.today ?? '0',
  ]);
  return {
    networkId,
    fee: net.withdrawFee,
    min: net.minWithdraw,
    max: net.maxWithdraw,
    dailyLimit: net.dailyWithdrawLimit,
    dailyRemaining: formatAmount(remaining[0]?.r ?? '0'),
    available: formatAmount(row?.available ?? '0'),
    payoutsFrozen: net.payoutsFrozen,
  };
}

/**
 * Applies for a withdrawal: the address must be valid for the network, the e-mail code right,
 * the amount within the network's rules; then amount + the fee of the quote `quoteId` move
 * from available to frozen in one SQL call (coffer_withdraw_request), which spends the quote
 * (3019 expired, 3020 used, 3021 unknown or another user's, 3022 another network's; docs/decisions/040),
 * with the code used up in the same transaction. The request's hash leaves the quote out: a
 * replay after the quote ran out still answers the withdrawal it made.
 *
 * An Idempotency-Key that already has its answer is answered again without a new code (the
 * first one is used up) and without looking at what changed since: the same withdrawal
 * (replayed), or the same refusal, or 3010 for another request. A refusal by the ledger once
 * the code was accepted (3001, 3009, ...) is kept under the key (decision 012) and leaves the
 * code unused, so the user may correct the request and send it with a new key and the same
 * code; a refusal before the code (3008, 3013, 3003, 3012, 3014, 3015, 3016, 3002, 2004) is not kept.
 */
export async function applyWithdrawal(
  database: Database,
  rules: AddressRules,
  user: SessionUser,
  body: WithdrawApplyBody,
  key: string | null,
): Promise<WithdrawApplyData> {
  const net = await networkFor(database, body.networkId, body.currencyId);
  // 3008 not an address or our own hot wallet, 3013 a destination that burns what it gets.
  const address = await payableDestination(database, rules, net, body.address);
  const [cur] = await database.sql.query<{ decimals: number }>('select decimals from currencies where id = $1', [net.currencyId]);
  const amountRules = {
    decimals: Math.min(cur?.decimals ?? 0, net.tokenDecimals),
    transferMin: net.minWithdraw,
    transferMax: net.maxWithdraw,
  };
  // The request as the ledger sees it (the network's limits are checked below, not here:
  // they may have changed since the key got its answer).
  const amount = parseAmount(body.amount, amountRules, { limits: false });
  const memo = body.memo ? body.memo : null;
  const hash = key ? requestHash('withdraw', { networkId: net.id, address, amount, memo }) : null;

  const call = sql`select w_id, w_replayed, w_refusal from coffer_withdraw_request(${user.id}, ${net.id}, ${address}, ${amount}::numeric, ${memo}, ${key}, ${hash}, ${body.quoteId})`;
  type Applied = { w_id: number | null; w_replayed: boolean | null; w_refusal: string | null };
  const rowOf = (res: unknown) => (res as { rows: Applied[] }).rows[0];
  const withCode = async () => {
    // What can be judged without the code comes first, so a refusal does not use up a code.
    if (!net.withdrawEnabled) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'networkId');
    if (net.payoutsFrozen) throw new BizError(ErrorCode.PAYOUTS_FROZEN);
    // After a credential change withdrawals wait (3014, with the time left).
    await assertNoHold(database, user.id);
    // The address book: an entry still in its waiting time (3015), outside the book with
    // "whitelist only" on (3016).
    await assertBookAllows(database, user.id, net.id, address);
    parseAmount(body.amount, amountRules);
    // The step-up policy (decision 033): with two-factor on, a code or a passkey's step-up
    // token too (2006 without, 2007 wrong or replayed code, 2008 unknown or used token).
    await requireStepUp(database, user.id, 'withdraw', body);
    const codeId = await checkEmailCode(database.db, user.email, 'withdraw', body.code);
    return database.db.transaction(async (tx) => {
      const row = rowOf(await tx.execute(call));
      // A withdrawal uses the code up; a refusal kept under the key commits without it.
      if (row && row.w_refusal === null) await consumeEmailCode(tx, codeId);
      return row;
    });
  };
  let result: Applied | undefined;
  try {
    for (let attempt = 1; ; attempt++) {
      result = key && (await keyAnswered(database, user.id, key)) ? rowOf(await database.db.execute(call)) : await withCode();
      // 40001: a concurrent request with this key got its answer in first; 40P01: keeping the
      // refusal deadlocked with it. Either way the key now has an answer: ask again.
      if (attempt >= 3 || !['40001', '40P01'].includes(result?.w_refusal ?? '')) break;
    }
  } catch (e) {
    rethrowLedgerError(e);
  }
  if (!result) throw new Error('coffer_withdraw_request answered no row');
  if (result.w_refusal !== null) {
    rethrowLedgerError(Object.assign(new Error(`withdrawal refused: SQLSTATE ${result.w_refusal}`), { code: result.w_refusal }));
  }
  const record = await withdrawalRecord(database, Number(result.w_id));
  return { ...record, replayed: result.w_replayed === true };
}

/** The user cancels before the sender has broadcast: everything goes back to available. */
export async function cancelWithdrawal(database: Database, userId: number, id: number): Promise<WithdrawRecord> {
  await withdrawalRecord(database, id, userId); // 4004 for another user's id
  await refund(database, id, 'cancelled', null, WITHDRAW_CANCELLABLE, null);
  return withdrawalRecord(database, id, userId);
}

/**
 * An operator's decision on a withdrawal waiting for review; the decision and its audit-trail
 * row (operator_actions) commit together. An approval goes through coffer_withdraw_approve
 * (decision 044): above the network's second threshold the first one is recorded and the
 * withdrawal stays in review until a different operator approves too (the same one: 3041).
 * A rejection needs one operator, whoever approved first.
 */
export async function reviewWithdrawal(
  database: Database,
  operator: Pick<SessionUser, 'id' | 'email'>,
  id: number,
  decision: 'approve' | 'reject',
  reason: string,
): Promise<WithdrawRecord> {
  await withdrawalRecord(database, id);
  try {
    await inTransaction(database, async (q) => {
      const [before] = await q<{ status: string; first_approved_by_email: string | null }>(
        'select status, first_approved_by_email from withdrawals where id = $1 for update',
        [id],
      );
      if (before?.status !== 'review') throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
      const firstBy = before.first_approved_by_email;
      if (decision === 'reject') {
        await q(`select coffer_withdraw_refund($1, 'rejected', $2, '{review}', $3)`, [id, reason, operator.id]);
        await recordOperatorAction(q, {
          ...operatorOf(operator),
          action: 'withdrawal.reject',
          targetType: 'withdrawal',
          targetId: id,
          reason,
          before: firstBy === null ? { status: 'review' } : { status: 'review', firstApprovedBy: firstBy },
          after: { status: 'rejected' },
        });
        return;
      }
      const [done] = await q<{ step: 'first' | 'queued' }>('select coffer_withdraw_approve($1, $2, $3, $4) as step', [
        id,
        operator.id,
        operator.email,
        reason,
      ]);
      const first = done?.step === 'first';
      await recordOperatorAction(q, {
        ...operatorOf(operator),
        // the first of two approvals has its own name; "withdrawal.approve" filters find both
        action: first ? 'withdrawal.approve.first' : 'withdrawal.approve',
        targetType: 'withdrawal',
        targetId: id,
        reason,
        before: firstBy === null ? { status: 'review' } : { status: 'review', firstApprovedBy: firstBy },
        after: first ? { status: 'review', firstApprovedBy: operator.email, waitingForSecondOperator: true } : { status: 'queued' },
      });
    });
  } catch (e) {
    if (e instanceof BizError) throw e;
    rethrowLedgerError(e);
  }
  return withdrawalRecord(database, id);
}

async function refund(
  database: Database,
  id: number,
  status: 'cancelled' | 'rejected' | 'failed',
  reason: string | null,
  from: readonly string[],
  actor: number | null,
) {
  try {
    await database.sql.query('select coffer_withdraw_refund($1, $2, $3, $4::text[], $5)', [id, status, reason, [...from], actor]);
  } catch (e) {
    rethrowLedgerError(e);
  }
}
