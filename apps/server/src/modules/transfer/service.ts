import {
  type Currency,
  ErrorCode,
  maskEmail,
  type PageResponse,
  type Recipient,
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
import { requestHash } from '../../ledger/idempotency.ts';
import { rethrowLedgerError } from '../../ledger/sql-errors.ts';

export type RecipientRef = { uid: number } | { email: string };

export interface TransferInput {
  to: RecipientRef;
  currencyId: number;
  amount: string;
  memo?: string | undefined;
}

interface TransferFnRow {
  t_id: number;
  t_entry: number;
  t_to: number;
  t_to_email: string;
  t_to_nickname: string;
  t_amount: string;
  t_memo: string | null;
  t_created: Date | string;
  t_replayed: boolean;
}

const TRANSFER_SQL = 'select * from coffer_transfer($1, $2, $3, $4, $5::numeric, $6, $7, $8)';

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/**
 * Moves `amount` from the signed-in user's available balance to another user's, in one
 * round trip to coffer_transfer() (DESIGN §6). Checks that need no database (shape,
 * decimals, limits, sending to oneself by uid or e-mail) answer before it is called.
 */
export async function transfer(
  database: Database,
  from: SessionUser,
  input: TransferInput,
  idempotencyKey: string | null,
): Promise<TransferResult> {
  const currency = await enabledCurrency(database, input.currencyId);
  const amount = parseAmount(input.amount, currency);
  const memo = input.memo?.trim() || null;
  if ('uid' in input.to ? input.to.uid === from.id : input.to.email.toLowerCase() === from.email.toLowerCase()) {
    throw new BizError(ErrorCode.CANNOT_SEND_TO_SELF);
  }
  const target = 'uid' in input.to ? { uid: input.to.uid } : { email: input.to.email.toLowerCase() };
  const hash = idempotencyKey ? requestHash('transfer', { ...target, currencyId: currency.id, amount, memo }) : null;
  let row: TransferFnRow | undefined;
  try {
    [row] = await database.sql.query<TransferFnRow>(TRANSFER_SQL, [
      from.id,
      'uid' in target ? target.uid : null,
      'email' in target ? target.email : null,
      currency.id,
      amount,
      memo,
      idempotencyKey,
      hash,
    ]);
  } catch (e) {
    rethrowLedgerError(e);
  }
  if (!row) throw new Error('coffer_transfer returned no row');
  return {
    id: Number(row.t_id),
    direction: 'out',
    currencyId: currency.id,
    code: currency.code,
    amount: trimDecimal(row.t_amount),
    memo: row.t_memo,
    counterparty: { uid: Number(row.t_to), maskedEmail: maskEmail(row.t_to_email), nickname: row.t_to_nickname },
    status: 'success',
    createdAt: iso(row.t_created),
    replayed: row.t_replayed,
  };
}

interface TransferRow {
  id: number;
  from_user_id: number;
  currency_id: number;
  amount: string;
  memo: string | null;
  created_at: Date | string;
  cp_id: number;
  cp_email: string;
  cp_nickname: string;
}

const RECORD_COLUMNS = `t.id, t.from_user_id, t.currency_id, t.amount, t.memo, t.created_at,
  u.id as cp_id, u.email as cp_email, u.nickname as cp_nickname`;
const COUNTERPARTY_JOIN = 'join users u on u.id = case when t.from_user_id = $1 then t.to_user_id else t.from_user_id end';

function toRecord(viewer: number, row: TransferRow, byId: Map<number, Currency>): TransferRecord {
  const currencyId = Number(row.currency_id);
  return {
    id: Number(row.id),
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
