import { ErrorCode, type SwapApplyBody, type SwapApplyData } from '@coffer/contract';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { groupCommit } from '../../ledger/group-commit.ts';
import { keepRefusal, requestHash } from '../../ledger/idempotency.ts';
import { rethrowLedgerError, sqlState } from '../../ledger/sql-errors.ts';
import { plain, priceSwap, type SwapPrice } from './pricing.ts';
import { pairFor, quotedPrice, quoteExpired } from './quotes.ts';
import type { PricedPair, RateSource } from './rates/index.ts';
import { findOwnSwap } from './records.ts';
import { SWAP_BATCH, type SwapItem, type SwapOutcome } from './statements.ts';

/** SQLSTATE raised by coffer_swap_apply() for a quote that is expired, used or not this request. */
const QUOTE_SQLSTATE = 'CB006';

/** Sells `amount` of `from` for `to` as one journal entry (see coffer_swap in drizzle/). */
export async function applySwap(
  database: Database,
  rates: RateSource,
  userId: number,
  body: SwapApplyBody,
  idempotencyKey: string | null,
): Promise<SwapApplyData> {
  const hash = requestHash('swap.apply', {
    fromCurrencyId: body.fromCurrencyId,
    toCurrencyId: body.toCurrencyId,
    amount: plain(body.amount),
    quoteId: body.quoteId ?? null,
  });
  // The pair is looked up while the replay check runs (one round trip less per swap). A
  // replay answers what the first request got, even if its quote has expired or its pair is
  // unavailable since, so the lookup's refusal only counts once there is no earlier answer.
  const pairLookup = pairFor(rates, body.fromCurrencyId, body.toCurrencyId);
  pairLookup.catch(() => undefined);
  if (idempotencyKey) {
    const earlier = await replay(database, userId, idempotencyKey, hash);
    if (earlier) return earlier;
  }

  let pair: PricedPair;
  let price: SwapPrice;
  try {
    pair = await pairLookup;
    price = body.quoteId === undefined ? priceSwap(pair, body.amount) : await quotedPrice(database, userId, body, pair);
  } catch (e) {
    // A refusal of the pair, the amount or the quote (3003, 3002, 3006) is kept under the key
    // like the ledger's own (decision 012); a concurrent twin's answer under it wins.
    if (idempotencyKey && (await keepRefusal(database, 'swap', userId, idempotencyKey, hash, e)) === 'taken') {
      const earlier = await replay(database, userId, idempotencyKey, hash);
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
    // One coffer_swap_apply() inside coffer_swap_batch(), shared with the swaps that arrived with it;
    // the writer runs an item refused by a deadlock or serialization failure again.
    result = await groupCommit(database, SWAP_BATCH).submit(item);
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
  const record = await findOwnSwap(database, userId, result.swapId);
  if (!record) throw new Error(`swap ${result.swapId} vanished`);
  return { ...record, replayed: result.replayed };
}

/**
 * The key's earlier answer, if it has one: the same swap (replayed), its refusal again (a
 * refusal is kept under its key, decision 012), or 3010 for another request.
 */
async function replay(database: Database, userId: number, key: string, hash: string): Promise<SwapApplyData | null> {
  const [row] = await database.sql.query<{
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
  const record = await findOwnSwap(database, userId, row.swap_id);
  if (!record) throw new Error(`swap ${row.swap_id} vanished`);
  return { ...record, replayed: true };
}
