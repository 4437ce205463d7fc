import {
  maskEmail,
  trimDecimal,
  type TurnoverBody,
  type TurnoverDetail,
  type TurnoverFilters,
  type TurnoverItem,
  type TurnoverPage,
} from '@coffer/contract';
import type { Database } from '../../db/client.ts';

/**
 * The user's statement: every posting on their own accounts, read straight from the
 * ledger (each posting keeps its balance after), with the business record beside it.
 */

/**
 * A line's reference: its journal entry, except a withdrawal's settle or refund lines, which
 * carry the withdrawal's hold entry, so the whole withdrawal reads as one number on its record,
 * its lines and the CSV (docs/decisions/059-exact-on-tap-and-chain-references.md).
 */
const REFERENCE_SQL = 'coalesce(wh.entry_id, p.entry_id)';
const REFERENCE_JOINS = `
    left join withdrawal_entries we on we.entry_id = p.entry_id and we.kind <> 'withdraw_hold'
    left join withdrawal_entries wh on wh.withdrawal_id = we.withdrawal_id and wh.kind = 'withdraw_hold'`;

/** Statement type of a posting: the entry kind, transfers split by direction. */
const TYPE_SQL = `case when e.kind = 'transfer' then (case when p.amount < 0 then 'transfer_out' else 'transfer_in' end) else e.kind end`;

const LINE_SELECT = `
  select p.id, p.entry_id, ${REFERENCE_SQL} as reference, ${TYPE_SQL} as type, p.currency_id, c.code as currency, a.kind as account_kind,
         p.amount::text as amount, p.balance_after::text as balance_after, p.created_at,
         e.kind as entry_kind, e.memo as entry_memo, e.created_at as entry_created_at,
         cp.id as cp_uid, cp.email as cp_email, cp.nickname as cp_nickname,
         s.id as swap_id, s.from_currency_id as swap_from_id, sf.code as swap_from, s.to_currency_id as swap_to_id,
         st.code as swap_to, s.from_amount::text as swap_from_amount, s.to_amount::text as swap_to_amount,
         s.rate::text as swap_rate, s.fee::text as swap_fee, s.fee_currency_id as swap_fee_currency_id,
         sfc.code as swap_fee_currency
    from postings p
    join accounts a on a.id = p.account_id
    join journal_entries e on e.id = p.entry_id
    join currencies c on c.id = p.currency_id
    left join transfers t on t.entry_id = p.entry_id
    left join users cp on cp.id = (case when t.from_user_id = a.user_id then t.to_user_id else t.from_user_id end)
    left join swaps s on s.entry_id = p.entry_id
    left join currencies sf on sf.id = s.from_currency_id
    left join currencies st on st.id = s.to_currency_id
    left join currencies sfc on sfc.id = s.fee_currency_id${REFERENCE_JOINS}`;

export interface LineRow {
  id: number;
  entry_id: number;
  reference: number | string;
  type: string;
  currency_id: number;
  currency: string;
  account_kind: string;
  amount: string;
  balance_after: string;
  created_at: Date | string;
  entry_kind: string;
  entry_memo: string | null;
  entry_created_at: Date | string;
  cp_uid: number | null;
  cp_email: string | null;
  cp_nickname: string | null;
  swap_id: number | null;
  swap_from_id: number | null;
  swap_from: string | null;
  swap_to_id: number | null;
  swap_to: string | null;
  swap_from_amount: string | null;
  swap_to_amount: string | null;
  swap_rate: string | null;
  swap_fee: string | null;
  swap_fee_currency_id: number | null;
  swap_fee_currency: string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();
const trimOrNull = (v: string | null) => (v === null ? null : trimDecimal(v));

export function toItem(r: LineRow): TurnoverItem {
  const isTransfer = r.entry_kind === 'transfer';
  return {
    id: r.id,
    entryId: r.entry_id,
    type: r.type,
    currencyId: r.currency_id,
    currency: r.currency,
    accountKind: r.account_kind,
    amount: trimDecimal(r.amount),
    balanceAfter: trimDecimal(r.balance_after),
    counterparty:
      isTransfer && r.cp_uid !== null ? { uid: r.cp_uid, maskedEmail: maskEmail(r.cp_email ?? ''), nickname: r.cp_nickname ?? '' } : null,
    reference: Number(r.reference),
    summary: r.swap_id !== null ? `${r.swap_from}→${r.swap_to}` : null,
    memo: isTransfer ? r.entry_memo : null,
    rate: trimOrNull(r.swap_rate),
    fee: trimOrNull(r.swap_fee),
    feeCurrency: r.swap_fee_currency,
    createdAt: iso(r.created_at),
  };
}

/** WHERE clauses and parameters for the user's postings under the filters ($1 is the user). */
function filterSql(userId: number, f: TurnoverFilters, extra?: { beforeId?: number }) {
  const params: unknown[] = [userId];
  const where = ['a.user_id = $1'];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (f.currencyId !== undefined) add((n) => `p.currency_id = ${n}`, f.currencyId);
  // The entries whose lines carry this reference: itself (unless it is a settle or refund,
  // whose lines carry their hold), and a hold's later entries. Written as an entry list so the
  // lookup stays on the postings' entry index.
  if (f.reference !== undefined)
    add(
      (n) =>
        `p.entry_id in (select ${n}::bigint where not exists (select 1 from withdrawal_entries x where x.entry_id = ${n} and x.kind <> 'withdraw_hold')
          union all select o.entry_id from withdrawal_entries h join withdrawal_entries o on o.withdrawal_id = h.withdrawal_id and o.kind <> 'withdraw_hold'
           where h.entry_id = ${n} and h.kind = 'withdraw_hold')`,
      f.reference,
    );
  if (f.type === 'transfer_in') where.push(`e.kind = 'transfer' and p.amount > 0`);
  else if (f.type === 'transfer_out') where.push(`e.kind = 'transfer' and p.amount < 0`);
  else if (f.type !== undefined) add((n) => `e.kind = ${n}`, f.type);
  if (f.from !== undefined) add((n) => `p.created_at >= ${n}::timestamptz`, f.from);
  if (f.to !== undefined) add((n) => `p.created_at < ${n}::timestamptz`, f.to);
  if (extra?.beforeId !== undefined) add((n) => `p.id < ${n}`, extra.beforeId);
  return { where: where.join(' and '), params };
}

export class TurnoverService {
  constructor(private readonly database: Database) {}

  async page(userId: number, body: TurnoverBody): Promise<TurnoverPage> {
    const { where, params } = filterSql(userId, body);
    const [count] = await this.database.sql.query<{ total: number }>(
      `select count(*)::int as total
         from postings p join accounts a on a.id = p.account_id join journal_entries e on e.id = p.entry_id
        where ${where}`,
      params,
    );
    const rows = await this.database.sql.query<LineRow>(
      `${LINE_SELECT} where ${where} order by p.id desc limit ${body.pageSize} offset ${(body.page - 1) * body.pageSize}`,
      params,
    );
    return { list: rows.map(toItem), total: count?.total ?? 0, page: body.page, pageSize: body.pageSize };
  }

  /** One posting of the user's with its entry and business record; another user's is not found. */
  async detail(userId: number, postingId: number): Promise<TurnoverDetail | null> {
    const [row] = await this.database.sql.query<LineRow>(`${LINE_SELECT} where p.id = $1 and a.user_id = $2`, [postingId, userId]);
    if (!row) return null;
    const own = await this.database.sql.query<{
      id: number;
      currency_id: number;
      currency: string;
      account_kind: string;
      amount: string;
      balance_after: string;
    }>(
      `select p.id, p.currency_id, c.code as currency, a.kind as account_kind, p.amount::text as amount,
              p.balance_after::text as balance_after
         from postings p join accounts a on a.id = p.account_id join currencies c on c.id = p.currency_id
        where p.entry_id = $1 and a.user_id = $2 order by p.id`,
      [row.entry_id, userId],
    );
    return {
      ...toItem(row),
      entry: {
        id: row.entry_id,
        kind: row.entry_kind,
        memo: row.entry_kind === 'transfer' ? row.entry_memo : null,
        createdAt: iso(row.entry_created_at),
        postings: own.map((p) => ({
          id: p.id,
          currencyId: p.currency_id,
          currency: p.currency,
          accountKind: p.account_kind,
          amount: trimDecimal(p.amount),
          balanceAfter: trimDecimal(p.balance_after),
        })),
      },
      swap:
        row.swap_id === null
          ? null
          : {
              id: row.swap_id,
              fromCurrencyId: row.swap_from_id!,
              fromCurrency: row.swap_from!,
              toCurrencyId: row.swap_to_id!,
              toCurrency: row.swap_to!,
              fromAmount: trimDecimal(row.swap_from_amount!),
              toAmount: trimDecimal(row.swap_to_amount!),
              rate: trimDecimal(row.swap_rate!),
              fee: trimDecimal(row.swap_fee!),
              feeCurrencyId: row.swap_fee_currency_id!,
              feeCurrency: row.swap_fee_currency!,
            },
    };
  }

  /** Every matching line, newest first, fetched in id-keyed batches (no OFFSET scans). */
  async *lines(userId: number, filters: TurnoverFilters, batchSize = 500): AsyncGenerator<TurnoverItem> {
    let beforeId: number | undefined;
    for (;;) {
      const { where, params } = filterSql(userId, filters, { beforeId });
      const rows = await this.database.sql.query<LineRow>(`${LINE_SELECT} where ${where} order by p.id desc limit ${batchSize}`, params);
      for (const row of rows) yield toItem(row);
      if (rows.length < batchSize) return;
      beforeId = rows[rows.length - 1]!.id;
    }
  }
}
