import type { SwapRecord, SwapRecordPage, SwapRecordPageBody } from '@coffer/contract';
import type { Database } from '../../db/client.ts';
import { plain } from './pricing.ts';

interface SwapRow {
  id: number;
  entry_id: number;
  quote_id: number | null;
  from_currency_id: number;
  from_code: string;
  to_currency_id: number;
  to_code: string;
  from_amount: string;
  to_amount: string;
  rate: string;
  mid_rate: string;
  fee: string;
  fee_currency_id: number;
  fee_code: string;
  created_at: Date | string;
}

const SWAP_SELECT = `
  select s.id, s.entry_id, s.quote_id, s.from_currency_id, f.code as from_code, s.to_currency_id, t.code as to_code,
         s.from_amount::text as from_amount, s.to_amount::text as to_amount, s.rate::text as rate,
         s.mid_rate::text as mid_rate, s.fee::text as fee, s.fee_currency_id, fc.code as fee_code, s.created_at
    from swaps s
    join currencies f on f.id = s.from_currency_id
    join currencies t on t.id = s.to_currency_id
    join currencies fc on fc.id = s.fee_currency_id`;

function toRecord(r: SwapRow): SwapRecord {
  return {
    id: r.id,
    entryId: r.entry_id,
    quoteId: r.quote_id,
    fromCurrencyId: r.from_currency_id,
    fromCurrency: r.from_code,
    toCurrencyId: r.to_currency_id,
    toCurrency: r.to_code,
    fromAmount: plain(r.from_amount),
    toAmount: plain(r.to_amount),
    rate: plain(r.rate),
    midRate: plain(r.mid_rate),
    fee: plain(r.fee),
    feeCurrencyId: r.fee_currency_id,
    feeCurrency: r.fee_code,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** One of the user's swaps; another user's id is simply not found. */
export async function findOwnSwap(database: Database, userId: number, swapId: number): Promise<SwapRecord | null> {
  const [row] = await database.sql.query<SwapRow>(`${SWAP_SELECT} where s.id = $1 and s.user_id = $2`, [swapId, userId], {
    name: 'swap_find_own_v1',
  });
  return row ? toRecord(row) : null;
}

/** The user's swaps, newest first, filtered by currency and time. */
export async function swapPage(database: Database, userId: number, body: SwapRecordPageBody): Promise<SwapRecordPage> {
  const params: unknown[] = [userId];
  const where = ['s.user_id = $1'];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (body.fromCurrencyId !== undefined) add((n) => `s.from_currency_id = ${n}`, body.fromCurrencyId);
  if (body.toCurrencyId !== undefined) add((n) => `s.to_currency_id = ${n}`, body.toCurrencyId);
  if (body.currencyId !== undefined) add((n) => `(s.from_currency_id = ${n} or s.to_currency_id = ${n})`, body.currencyId);
  if (body.from !== undefined) add((n) => `s.created_at >= ${n}::timestamptz`, body.from);
  if (body.to !== undefined) add((n) => `s.created_at < ${n}::timestamptz`, body.to);
  const filter = where.join(' and ');
  const [count] = await database.sql.query<{ total: number }>(`select count(*)::int as total from swaps s where ${filter}`, params);
  const rows = await database.sql.query<SwapRow>(
    `${SWAP_SELECT} where ${filter} order by s.id desc limit ${body.pageSize} offset ${(body.page - 1) * body.pageSize}`,
    params,
  );
  return { list: rows.map(toRecord), total: count?.total ?? 0, page: body.page, pageSize: body.pageSize };
}
