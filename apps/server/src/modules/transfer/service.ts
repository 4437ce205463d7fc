import {
  type Currency,
  ErrorCode,
  maskEmail,
  type PageResponse,
  type RecentRecipient,
  type Recipient,
  type StepUpProof,
  type TransferDirection,
  type TransferRecord,
  type TransferResult,
  trimDecimal,
} from '@coffer/contract';
import { BizError } from '../../core/errors.ts';
import type { SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { parseAmount } from '../../ledger/amounts.ts';
import { currencies, enabledCurrency } from '../../ledger/currencies.ts';
import { keyAnswered, requestHash } from '../../ledger/idempotency.ts';
import { rethrowLedgerError } from '../../ledger/sql-errors.ts';
import { transferLanded } from '../notify/index.ts';
import { hasStepUpProof, passStepUp, stepUpRequired } from '../two-factor/index.ts';
import { type BatchItem, transferBatcher } from './batcher.ts';

export type RecipientRef = { uid: number } | { email: string };

export interface TransferInput {
  to: RecipientRef;
  currencyId: number;
  amount: string;
  memo?: string | undefined;
  /** The second factor for the step-up policy (decision 033), when the user has one. */
  proof?: StepUpProof;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/** Who is asking: a token hash (resolved with the transfer) and how to tell 2001 first. */
export interface Caller {
  tokenHash: string;
  /**
   * Resolves the session on its own (2001 without one, 2010 for a disabled account); used only
   * on refusals and when the request carries a second factor to check.
   */
  requireSession(): Promise<{ id: number }>;
}

/** The shortest exact form of a decimal string ("010.50" -> "10.5"), or null if it is not one. */
function canonicalDecimal(raw: string): string | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(raw.trim());
  if (!m) return null;
  const int = m[1]!.replace(/^0+(?=\d)/, '');
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/**
 * Moves `amount` from the caller's available balance to another user's: one coffer_transfer_apply()
 * inside coffer_transfer_batch(), which also resolves the session, so a request costs one
 * statement shared with the transfers that arrived with it (group commit, see batcher.ts).
 * Checks that need no database (shape, decimals, limits) answer before it, after the session
 * is confirmed, so a caller without a session always hears 2001 first.
 *
 * With an Idempotency-Key, a refusal of the currency or amount (3003, 3002) is not answered
 * here but by the ledger, which makes the same checks after looking at the key: an earlier
 * answer under the key wins, and a new refusal is kept under it (decision 012). This costs the
 * refused request its statement; a transfer that goes through is unchanged.
 */
export async function transfer(
  database: Database,
  caller: Caller,
  input: TransferInput,
  idempotencyKey: string | null,
): Promise<TransferResult> {
  let currency: Currency;
  let amount: string;
  try {
    currency = await enabledCurrency(database, input.currencyId);
    amount = parseAmount(input.amount, currency);
  } catch (e) {
    await caller.requireSession();
    // A currency that does not exist at all and an amount that is no number stay answers of
    // their own (not kept): there is nothing for the ledger to check them against.
    const known = (await currencies(database)).byId.get(input.currencyId);
    const canonical = canonicalDecimal(input.amount);
    const keptByLedger =
      idempotencyKey !== null &&
      known !== undefined &&
      canonical !== null &&
      e instanceof BizError &&
      (e.bizCode === ErrorCode.AMOUNT_OUT_OF_RANGE || e.bizCode === ErrorCode.CURRENCY_UNAVAILABLE);
    if (!keptByLedger) throw e;
    currency = known;
    amount = canonical;
  }
  const stepped = await stepUp(database, caller, input.proof ?? {}, idempotencyKey);
  const memo = input.memo?.trim() || null;
  const toUid = 'uid' in input.to ? input.to.uid : null;
  const toEmail = 'email' in input.to ? input.to.email.toLowerCase() : null;
  const target = toUid !== null ? { uid: toUid } : { email: toEmail };
  const currencyId = input.currencyId;
  const hash = idempotencyKey ? requestHash('transfer', { ...target, currencyId, amount, memo }) : null;
  const item: BatchItem = {
    tokenHash: caller.tokenHash,
    toUid,
    toEmail,
    currencyId,
    amount,
    memo,
    key: idempotencyKey,
    hash,
    stepped,
  };
  // A deadlock or serialization failure between batches is run again by the writer (GroupCommit).
  const row = await transferBatcher(database).submit(item);
  if (row.b_state === 'AUTH') {
    // No session, or a disabled account: requireSession() names which (2001, 2010).
    await caller.requireSession();
    throw new BizError(ErrorCode.NOT_SIGNED_IN);
  }
  if (row.b_state === 'STEPUP') throw new BizError(ErrorCode.SECOND_FACTOR_REQUIRED);
  if (row.b_state === 'HOLD') throw new BizError(ErrorCode.TRANSFER_HOLD);
  if (row.b_state) {
    rethrowLedgerError(Object.assign(new Error(`transfer refused: SQLSTATE ${row.b_state}`), { code: row.b_state }));
  }
  // Committed: the recipient's notice is written off this path (a replay made it already).
  if (!row.t_replayed) transferLanded(database, Number(row.t_id));
  return {
    id: Number(row.t_id),
    reference: Number(row.t_entry),
    direction: 'out',
    currencyId,
    code: currency.code,
    amount: trimDecimal(row.t_amount),
    memo: row.t_memo,
    counterparty: { uid: Number(row.t_to), maskedEmail: maskEmail(row.t_to_email), nickname: row.t_to_nickname },
    status: 'success',
    createdAt: iso(row.t_created),
    replayed: row.t_replayed,
  };
}

/**
 * Checks the request's second factor when it carries one and the policy asks for it (decision
 * 033): true when the item may run for a user with two-factor on. A request without one costs
 * nothing here: the batch answers 'STEPUP' for a user who needs it. A replay of a key that has
 * its answer needs no new factor (the batch answers it as before and moves nothing), so a
 * client that resends after a lost answer, with the code it used once, is not refused.
 */
async function stepUp(database: Database, caller: Caller, proof: StepUpProof, key: string | null): Promise<boolean> {
  if (!hasStepUpProof(proof)) return false;
  const { id: userId } = await caller.requireSession();
  if (key && (await keyAnswered(database, userId, key))) return false;
  if (!(await stepUpRequired(database, userId, 'transfer'))) return false;
  await passStepUp(database, userId, proof);
  return true;
}

interface TransferRow {
  id: number;
  entry_id: number;
  from_user_id: number;
  currency_id: number;
  amount: string;
  memo: string | null;
  created_at: Date | string;
  cp_id: number;
  cp_email: string;
  cp_nickname: string;
}

const RECORD_COLUMNS = `t.id, t.entry_id, t.from_user_id, t.currency_id, t.amount, t.memo, t.created_at,
  u.id as cp_id, u.email as cp_email, u.nickname as cp_nickname`;
const COUNTERPARTY_JOIN = 'join users u on u.id = case when t.from_user_id = $1 then t.to_user_id else t.from_user_id end';

function toRecord(viewer: number, row: TransferRow, byId: Map<number, Currency>): TransferRecord {
  const currencyId = Number(row.currency_id);
  return {
    id: Number(row.id),
    reference: Number(row.entry_id),
    direction: Number(row.from_user_id) === viewer ? 'out' : 'in',
    currencyId,
    code: byId.get(currencyId)?.code ?? '',
    amount: trimDecimal(row.amount),
    memo: row.memo,
    counterparty: { uid: Number(row.cp_id), maskedEmail: maskEmail(row.cp_email), nickname: row.cp_nickname },
    status: 'success',
    createdAt: iso(row.created_at),
  };
}

/** The viewer's transfers, newest first: sent ones as out, received ones as in. */
export async function transferPage(
  database: Database,
  viewer: number,
  query: { page: number; pageSize: number; currencyId?: number | undefined; direction?: TransferDirection | undefined },
): Promise<PageResponse<TransferRecord>> {
  const params: unknown[] = [viewer];
  const where: string[] = [];
  if (query.direction === 'out') where.push('t.from_user_id = $1');
  else if (query.direction === 'in') where.push('t.to_user_id = $1');
  else where.push('(t.from_user_id = $1 or t.to_user_id = $1)');
  if (query.currencyId !== undefined) {
    params.push(query.currencyId);
    where.push(`t.currency_id = $${params.length}`);
  }
  const whereSql = where.join(' and ');
  const [rows, counts, all] = await Promise.all([
    database.sql.query<TransferRow>(
      `select ${RECORD_COLUMNS} from transfers t ${COUNTERPARTY_JOIN} where ${whereSql}
       order by t.id desc limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`,
      params,
    ),
    database.sql.query<{ n: number | string }>(`select count(*) as n from transfers t where ${whereSql}`, params),
    currencies(database),
  ]);
  return {
    list: rows.map((r) => toRecord(viewer, r, all.byId)),
    total: Number(counts[0]?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** One transfer the viewer sent or received; anyone else's answers 4004. */
export async function transferDetails(database: Database, viewer: number, id: number): Promise<TransferRecord> {
  const [rows, all] = await Promise.all([
    database.sql.query<TransferRow>(
      `select ${RECORD_COLUMNS} from transfers t ${COUNTERPARTY_JOIN}
       where t.id = $2 and (t.from_user_id = $1 or t.to_user_id = $1)`,
      [viewer, id],
    ),
    currencies(database),
  ]);
  const row = rows[0];
  if (!row) throw new BizError(ErrorCode.NOT_FOUND);
  return toRecord(viewer, row, all.byId);
}

/** Who a transfer would go to, for the confirmation step (3004 unknown, 3005 oneself). */
export async function previewRecipient(database: Database, viewer: SessionUser, ref: RecipientRef): Promise<Recipient> {
  const rows =
    'uid' in ref
      ? await database.sql.query<{ id: number; email: string; nickname: string; avatar: string | null }>(
          'select id, email, nickname, avatar from users where id = $1',
          [ref.uid],
        )
      : await database.sql.query<{ id: number; email: string; nickname: string; avatar: string | null }>(
          'select id, email, nickname, avatar from users where email = $1',
          [ref.email.toLowerCase()],
        );
  const row = rows[0];
  if (!row) throw new BizError(ErrorCode.RECIPIENT_NOT_FOUND);
  if (Number(row.id) === viewer.id) throw new BizError(ErrorCode.CANNOT_SEND_TO_SELF);
  return { uid: Number(row.id), maskedEmail: maskEmail(row.email), nickname: row.nickname, avatar: row.avatar };
}

/**
 * The people `viewer` sent money to, latest first, at most `limit`: from the viewer's own sent
 * transfers only (what they received, and anyone else's transfers, never show), e-mails masked
 * as in a recipient preview.
 */
export async function recentRecipients(database: Database, viewer: number, limit: number): Promise<RecentRecipient[]> {
  const rows = await database.sql.query<{
    id: number;
    email: string;
    nickname: string;
    avatar: string | null;
    last_sent_at: Date | string;
  }>(
    `select u.id, u.email, u.nickname, u.avatar, r.last_sent_at
       from (select to_user_id, max(created_at) as last_sent_at
               from transfers where from_user_id = $1
              group by to_user_id order by last_sent_at desc, to_user_id limit $2) r
       join users u on u.id = r.to_user_id
      order by r.last_sent_at desc, u.id`,
    [viewer, limit],
  );
  return rows.map((row) => ({
    uid: Number(row.id),
    maskedEmail: maskEmail(row.email),
    nickname: row.nickname,
    avatar: row.avatar,
    lastSentAt: new Date(row.last_sent_at).toISOString(),
  }));
}
