import {
  ErrorCode,
  SWAP_QUOTE_TTL_SECONDS,
  type SwapApplyBody,
  type SwapApplyData,
  type SwapPair,
  type SwapQuoteBody,
  type SwapQuoteData,
  type SwapRecord,
  type SwapRecordPage,
  type SwapRecordPageBody,
} from '@coffer/contract';
import type { FastifyBaseLogger } from 'fastify';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { type GroupCommitStatement, groupCommit } from '../../ledger/group-commit.ts';
import { keepRefusal, requestHash } from '../../ledger/idempotency.ts';
import { rethrowLedgerError, sqlState } from '../../ledger/sql-errors.ts';
import { Decimal, effectiveRate, movedBps, plain, priceSwap, rateAfterSpread, type SwapPrice } from './pricing.ts';
import type { PricedPair, RateSource } from './rates/index.ts';

/**
 * How far (in basis points of the quoted rate) the live rate may have moved, either way,
 * for a quote to still be honoured; beyond it apply answers 3006 and the client re-quotes.
 */
export const QUOTE_RATE_TOLERANCE_BPS = 20;

/** SQLSTATE raised by coffer_swap() for a quote that is expired, used or not this request. */
const QUOTE_SQLSTATE = 'CB006';

const quoteExpired = (detail?: string) => new BizError(ErrorCode.QUOTE_EXPIRED, detail);

/** One swap as coffer_swap() takes it; coffer_swap_batch() takes one array per field. */
interface SwapItem {
  userId: number;
  key: string | null;
  hash: string;
  quoteId: number | null;
  price: SwapPrice;
  fromCurrencyId: number;
  toCurrencyId: number;
}

interface SwapBatchRow {
  b_i: number;
  /** null: done (the rest filled as coffer_swap answers); else the SQLSTATE that refused the item. */
  b_state: string | null;
  swap_id: number | string | null;
  replayed: boolean | null;
  key_conflict: boolean | null;
  /** A new swap's journal entry and creation time (null on a replay). */
  s_entry: number | string | null;
  s_created: Date | string | null;
}

interface SwapOutcome {
  state: string | null;
  swapId: number | null;
  replayed: boolean;
  keyConflict: boolean;
  entryId: number | null;
  createdAt: Date | string | null;
}

/** coffer_swap_batch() (drizzle/0009) as a group-commit statement (ledger/group-commit.ts). */
const SWAP_BATCH: GroupCommitStatement<SwapItem, SwapBatchRow, SwapOutcome> = {
  name: 'coffer_swap_batch_v2',
  sql: `select b_i, b_state, swap_id, replayed, key_conflict, s_entry, s_created
          from coffer_swap_batch($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::integer[], $6::integer[],
                                 $7::numeric[], $8::numeric[], $9::numeric[], $10::integer[], $11::numeric[],
                                 $12::numeric[], $13::integer[], $14::integer[])`,
  params: (items) => [
    items.map((s) => s.userId),
    items.map((s) => s.key),
    items.map((s) => s.hash),
    items.map((s) => s.quoteId),
    items.map((s) => s.fromCurrencyId),
    items.map((s) => s.toCurrencyId),
    items.map((s) => s.price.fromAmount),
    items.map((s) => s.price.toAmount),
    items.map((s) => s.price.fee),
    items.map((s) => s.price.feeCurrencyId),
    items.map((s) => s.price.rate),
    items.map((s) => s.price.midRate),
    items.map((s) => s.price.spreadBps),
    items.map((s) => s.price.feeBps),
  ],
  row: (r) => ({
    state: r.b_state,
    swapId: r.swap_id === null ? null : Number(r.swap_id),
    replayed: r.replayed === true,
    keyConflict: r.key_conflict === true,
    entryId: r.s_entry === null ? null : Number(r.s_entry),
    createdAt: r.s_created,
  }),
};

/** Deadlock or serialization failure between batches of two API processes: run the item again. */
const RETRY_SQLSTATES = new Set(['40P01', '40001']);

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

interface QuoteRow {
  id: number;
  user_id: number;
  from_currency_id: number;
  to_currency_id: number;
  from_amount: string;
  to_amount: string;
  rate: string;
  mid_rate: string;
  spread_bps: number;
  fee_bps: number;
  fee: string;
  fee_currency_id: number;
  expires_at: Date | string;
  used_at: Date | string | null;
}

export class SwapService {
  constructor(
    private readonly database: Database,
    private readonly rates: RateSource,
  ) {}

  /** Public price list: what a user gets per pair after spread (and after fee). */
  async listRates(): Promise<SwapPair[]> {
    const pairs = await this.rates.listPairs();
    return pairs.map((p) => ({
      fromCurrencyId: p.fromCurrencyId,
      fromCurrency: p.fromCode,
      toCurrencyId: p.toCurrencyId,
      toCurrency: p.toCode,
      rate: rateAfterSpread(p.midRate, p.spreadBps),
      effectiveRate: effectiveRate(p),
      spreadBps: p.spreadBps,
      feeBps: p.feeBps,
      feeCurrencyId: p.feeCurrency === 'to' ? p.toCurrencyId : p.fromCurrencyId,
      minAmount: p.minAmount === null ? null : plain(p.minAmount),
      maxAmount: p.maxAmount === null ? null : plain(p.maxAmount),
      updatedAt: p.updatedAt.toISOString(),
    }));
  }

  /** The pair for a direction, or 1001 (same currency) / 3003 (unknown, disabled, no fresh price). */
  private async pairFor(fromCurrencyId: number, toCurrencyId: number): Promise<PricedPair> {
    if (fromCurrencyId === toCurrencyId) {
      throw new BizError(ErrorCode.INVALID_PARAMS, 'toCurrencyId: must differ from fromCurrencyId');
    }
    const pair = await this.rates.getPair(fromCurrencyId, toCurrencyId);
    if (!pair) throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'no swap between these currencies right now');
    return pair;
  }

  async quote(userId: number, body: SwapQuoteBody): Promise<SwapQuoteData> {
    const pair = await this.pairFor(body.fromCurrencyId, body.toCurrencyId);
    const price = priceSwap(pair, body.amount);
    const [row] = await this.database.sql.query<{ id: number; expires_at: Date | string }>(
      `insert into swap_quotes (user_id, from_currency_id, to_currency_id, from_amount, to_amount, rate, mid_rate,
                                spread_bps, fee_bps, fee, fee_currency_id, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() + make_interval(secs => $12))
       returning id, expires_at`,
      [
        userId,
        pair.fromCurrencyId,
        pair.toCurrencyId,
        price.fromAmount,
        price.toAmount,
        price.rate,
        price.midRate,
        price.spreadBps,
        price.feeBps,
        price.fee,
        price.feeCurrencyId,
        SWAP_QUOTE_TTL_SECONDS,
      ],
    );
    return {
      quoteId: row!.id,
      fromCurrencyId: pair.fromCurrencyId,
      toCurrencyId: pair.toCurrencyId,
      rate: price.rate,
      fromAmount: price.fromAmount,
      toAmount: price.toAmount,
      fee: price.fee,
      feeCurrencyId: price.feeCurrencyId,
      expiresAt: new Date(row!.expires_at).toISOString(),
    };
  }

  /** Sells `amount` of `from` for `to` as one journal entry (see coffer_swap in drizzle/). */
  async apply(userId: number, body: SwapApplyBody, idempotencyKey: string | null): Promise<SwapApplyData> {
    const hash = requestHash('swap.apply', {
      fromCurrencyId: body.fromCurrencyId,
      toCurrencyId: body.toCurrencyId,
      amount: plain(body.amount),
      quoteId: body.quoteId ?? null,
    });
    // The pair is looked up while the replay check runs (one round trip less per swap). A
    // replay answers what the first request got, even if its quote has expired or its pair is
    // unavailable since, so the lookup's refusal only counts once there is no earlier answer.
    const pairLookup = this.pairFor(body.fromCurrencyId, body.toCurrencyId);
    pairLookup.catch(() => undefined);
    if (idempotencyKey) {
      const earlier = await this.replay(userId, idempotencyKey, hash);
      if (earlier) return earlier;
    }

    let pair: PricedPair;
    let price: SwapPrice;
    try {
      pair = await pairLookup;
      price = body.quoteId === undefined ? priceSwap(pair, body.amount) : await this.quotedPrice(userId, body, pair);
    } catch (e) {
      // A refusal of the pair, the amount or the quote (3003, 3002, 3006) is kept under the key
      // like the ledger's own (decision 012); a concurrent twin's answer under it wins.
      if (idempotencyKey && (await keepRefusal(this.database, 'swap', userId, idempotencyKey, hash, e)) === 'taken') {
        const earlier = await this.replay(userId, idempotencyKey, hash);
        if (earlier) return earlier;
      }
      throw e;
    }

    const item: SwapItem = {
      userId,
      key: idempotencyKey,
      hash,
      quoteId: body.quoteId ?? null,
      price,
      fromCurrencyId: pair.fromCurrencyId,
      toCurrencyId: pair.toCurrencyId,
    };
    let result: SwapOutcome;
    try {
      // One coffer_swap() inside coffer_swap_batch(), shared with the swaps that arrived with it.
      const writer = groupCommit(this.database, SWAP_BATCH);
      result = await writer.submit(item);
      for (let retry = 0; retry < 3 && result.state !== null && RETRY_SQLSTATES.has(result.state); retry++) {
        result = await writer.submit(item);
      }
      if (result.state !== null) {
        throw Object.assign(new Error(`swap refused: SQLSTATE ${result.state}`), { code: result.state });
      }
    } catch (e) {
      if (sqlState(e) === QUOTE_SQLSTATE) throw quoteExpired('quoteId');
      rethrowLedgerError(e);
    }
    if (result.keyConflict || result.swapId === null) throw new BizError(ErrorCode.IDEMPOTENCY_KEY_REUSED);
    if (!result.replayed && result.entryId !== null && result.createdAt !== null) {
      // A new swap stored exactly these values (all within NUMERIC(38,18)): no need to read it back.
      const feeCurrency = price.feeCurrencyId === pair.fromCurrencyId ? pair.fromCode : pair.toCode;
      return {
        id: result.swapId,
        entryId: result.entryId,
        quoteId: body.quoteId ?? null,
        fromCurrencyId: pair.fromCurrencyId,
        fromCurrency: pair.fromCode,
        toCurrencyId: pair.toCurrencyId,
        toCurrency: pair.toCode,
        fromAmount: plain(price.fromAmount),
        toAmount: plain(price.toAmount),
        rate: plain(price.rate),
        midRate: plain(price.midRate),
        fee: plain(price.fee),
        feeCurrencyId: price.feeCurrencyId,
        feeCurrency,
        createdAt: new Date(result.createdAt).toISOString(),
        replayed: false,
      };
    }
    const record = await this.findOwn(userId, result.swapId);
    if (!record) throw new Error(`swap ${result.swapId} vanished`);
    return { ...record, replayed: result.replayed };
  }

  /**
   * The key's earlier answer, if it has one: the same swap (replayed), its refusal again (a
   * refusal is kept under its key, decision 012), or 3010 for another request.
   */
  private async replay(userId: number, key: string, hash: string): Promise<SwapApplyData | null> {
    const [row] = await this.database.sql.query<{
      kind: string;
      request_hash: string | null;
      refusal: string | null;
      swap_id: number | null;
    }>(
      `select e.kind, e.request_hash, e.refusal, s.id as swap_id
         from journal_entries e left join swaps s on s.entry_id = e.id
        where e.user_id = $1 and e.idempotency_key = $2`,
      [userId, key],
      { name: 'swap_replay_v2' },
    );
    if (!row) return null;
    if (row.refusal !== null && row.kind === 'swap' && row.request_hash === hash) {
      rethrowLedgerError(Object.assign(new Error(`swap refused: SQLSTATE ${row.refusal}`), { code: row.refusal }));
    }
    if (row.request_hash !== hash || row.swap_id === null) throw new BizError(ErrorCode.IDEMPOTENCY_KEY_REUSED);
    const record = await this.findOwn(userId, row.swap_id);
    if (!record) throw new Error(`swap ${row.swap_id} vanished`);
    return { ...record, replayed: true };
  }

  /** A quote holds if it is this user's, for this request, unused, unexpired, and the rate held still. */
  private async quotedPrice(userId: number, body: SwapApplyBody, pair: PricedPair): Promise<SwapPrice> {
    const [q] = await this.database.sql.query<QuoteRow>(
      `select id, user_id, from_currency_id, to_currency_id, from_amount::text as from_amount, to_amount::text as to_amount,
              rate::text as rate, mid_rate::text as mid_rate, spread_bps, fee_bps, fee::text as fee, fee_currency_id,
              expires_at, used_at
         from swap_quotes where id = $1`,
      [body.quoteId],
    );
    if (!q || q.user_id !== userId) throw quoteExpired('quoteId: unknown quote');
    if (
      q.from_currency_id !== body.fromCurrencyId ||
      q.to_currency_id !== body.toCurrencyId ||
      !new Decimal(q.from_amount).eq(body.amount)
    ) {
      throw quoteExpired('quoteId: the quote was for another request');
    }
    if (q.used_at !== null) throw quoteExpired('quoteId: already used');
    if (new Date(q.expires_at).getTime() <= Date.now()) throw quoteExpired('quoteId: expired');
    const current = rateAfterSpread(pair.midRate, pair.spreadBps);
    if (movedBps(q.rate, current).gt(QUOTE_RATE_TOLERANCE_BPS)) throw quoteExpired('rate moved');
    return {
      fromAmount: plain(q.from_amount),
      toAmount: plain(q.to_amount),
      fee: plain(q.fee),
      feeCurrencyId: q.fee_currency_id,
      rate: plain(q.rate),
      midRate: plain(q.mid_rate),
      spreadBps: q.spread_bps,
      feeBps: q.fee_bps,
    };
  }

  /** One of the user's swaps; another user's id is simply not found. */
  async findOwn(userId: number, swapId: number): Promise<SwapRecord | null> {
    const [row] = await this.database.sql.query<SwapRow>(`${SWAP_SELECT} where s.id = $1 and s.user_id = $2`, [swapId, userId], {
      name: 'swap_find_own_v1',
    });
    return row ? toRecord(row) : null;
  }

  async page(userId: number, body: SwapRecordPageBody): Promise<SwapRecordPage> {
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
    const [count] = await this.database.sql.query<{ total: number }>(
      `select count(*)::int as total from swaps s where ${filter}`,
      params,
    );
    const rows = await this.database.sql.query<SwapRow>(
      `${SWAP_SELECT} where ${filter} order by s.id desc limit ${body.pageSize} offset ${(body.page - 1) * body.pageSize}`,
      params,
    );
    return { list: rows.map(toRecord), total: count?.total ?? 0, page: body.page, pageSize: body.pageSize };
  }
}

/** Who sets a house limit: an operator (user id and e-mail) or the configuration ('config'). */
export interface HouseLimitActor {
  actorUserId: number | null;
  actor: string;
  reason: string | null;
}

/** The actor of the limits applied from HOUSE_LIMITS at start (operator_actions.actor). */
export const CONFIG_ACTOR: HouseLimitActor = { actorUserId: null, actor: 'config', reason: 'HOUSE_LIMITS' };

/**
 * The house may owe at most `limit` of a currency: its floor becomes −limit. A house that
 * already owes more keeps its current balance as the floor (no further outflow) rather
 * than breaking the ledger's floor check. Through coffer_house_limit_set (drizzle/0020), which
 * records the change in the operator audit trail in the same transaction, and changes (and
 * records) nothing when the limit and floor are already so (`changed: false`).
 */
export async function setHouseLimit(database: Database, currencyId: number, limit: string, by: HouseLimitActor) {
  let row: { h_changed: boolean; h_limit: string; h_balance: string; h_min_balance: string } | undefined;
  try {
    [row] = await database.sql.query<NonNullable<typeof row>>(
      `select h_changed, h_limit::text, h_balance::text, h_min_balance::text
         from coffer_house_limit_set($1, $2::numeric, $3, $4, $5)`,
      [currencyId, limit, by.actorUserId, by.actor, by.reason],
    );
  } catch (e) {
    if (sqlState(e) === 'CB003') throw new BizError(ErrorCode.CURRENCY_UNAVAILABLE, 'currencyId');
    rethrowLedgerError(e);
  }
  return {
    currencyId,
    limit: plain(row!.h_limit),
    balance: plain(row!.h_balance),
    minBalance: plain(row!.h_min_balance),
    changed: row!.h_changed,
  };
}

/** Applies HOUSE_LIMITS at start; unknown codes are reported, not fatal. */
export async function applyConfiguredHouseLimits(
  database: Database,
  limits: { code: string; limit: string }[],
  log: FastifyBaseLogger,
): Promise<void> {
  if (limits.length === 0) return;
  const rows = await database.sql.query<{ id: number; code: string }>(`select id, code from currencies`);
  const byCode = new Map(rows.map((r) => [r.code.toUpperCase(), r.id]));
  for (const { code, limit } of limits) {
    const id = byCode.get(code);
    if (id === undefined) {
      log.warn({ code }, 'HOUSE_LIMITS names an unknown currency; ignored');
      continue;
    }
    await setHouseLimit(database, id, limit, CONFIG_ACTOR);
  }
}
