import { ErrorCode, type SwapApplyBody, type SwapApplyData } from '@coffer/contract';
import { BizError } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { groupCommit } from '../../ledger/group-commit.ts';
import { keepRefusal, keyAnswered, requestHash } from '../../ledger/idempotency.ts';
import { rethrowLedgerError } from '../../ledger/sql-errors.ts';
import { hasStepUpProof, passStepUp, stepUpRequired } from '../two-factor/index.ts';
import { plain, priceSwap, type SwapPrice } from './pricing.ts';
import { pairFor, quoteExpired, quoteHolds, sessionAndQuote } from './quotes.ts';
import { OperatorRateTable, type PricedPair, type RateSource } from './rates/index.ts';
import { findOwnSwap } from './records.ts';
import { SWAP_BATCH, type SwapItem, type SwapOutcome } from './statements.ts';

/** SQLSTATE raised by coffer_swap_apply() for a quote that is expired, used or not this request. */
const QUOTE_SQLSTATE = 'CB006';

/**
 * Who is asking: the session token's hash, which coffer_swap_batch() resolves with the swap
 * (no lookup of its own), and the full session check, for the paths that need the user first
 * (a quote, a refusal before the ledger) or must tell 2001 from 2010.
 */
export interface SwapCaller {
  tokenHash: string;
  requireSession(): Promise<{ id: number }>;
}

/**
 * How long a process prices swaps from its copy of the operator's pairs before reading them
 * again. A copy is never trusted on its own: each swap carries its pair's signature and the
 * batch answers 'PAIR' when the pair has changed since, and any refusal made from a copy is
 * made again from a fresh read before it is answered (or kept under a key). So the copy only
 * saves the read of swap_pairs per swap (one round trip); a change still applies at once.
 */
export const PAIR_COPY_MS = 2_000;

const pairCopies = new WeakMap<RateSource, { at: number; pairs: Promise<PricedPair[]> }>();

/** The pair from this process's copy of the operator table, or null (not there, or another source). */
async function copiedPair(rates: RateSource, from: number, to: number): Promise<PricedPair | null> {
  if (!(rates instanceof OperatorRateTable) || from === to) return null;
  let copy = pairCopies.get(rates);
  if (!copy || performance.now() - copy.at > PAIR_COPY_MS) {
    const fresh = { at: performance.now(), pairs: rates.listPairs() };
    fresh.pairs.catch(() => {
      if (pairCopies.get(rates) === fresh) pairCopies.delete(rates);
    });
    pairCopies.set(rates, fresh);
    copy = fresh;
  }
  const pairs = await copy.pairs.catch((): PricedPair[] => []);
  return pairs.find((p) => p.fromCurrencyId === from && p.toCurrencyId === to && p.signature !== undefined) ?? null;
}

/** The answer of an attempt priced from a copied pair that must be made again from a fresh read. */
const STALE = Symbol('stale pair');

/**
 * Sells `amount` of `from` for `to` as one journal entry: one coffer_swap_batch() item, shared
 * with the swaps that arrived with it (group commit), which also resolves the session and
 * checks the Idempotency-Key. A swap at the live rate costs that one statement (its pair comes
 * from the process's copy, see PAIR_COPY_MS); a quoted one also the session and the quote read.
 */
export async function applySwap(
  database: Database,
  rates: RateSource,
  caller: SwapCaller,
  body: SwapApplyBody,
  idempotencyKey: string | null,
): Promise<SwapApplyData> {
  const hash = requestHash('swap.apply', {
    fromCurrencyId: body.fromCurrencyId,
    toCurrencyId: body.toCurrencyId,
    amount: plain(body.amount),
    quoteId: body.quoteId ?? null,
  });
  let session: Promise<{ id: number }> | undefined;
  const user = () => {
    session ??= caller.requireSession();
    return session;
  };
  const knownUser = (id: number) => {
    session ??= Promise.resolve({ id });
  };
  const stepped = await stepUp(database, user, body, idempotencyKey);
  const attempt = { database, rates, caller, user, knownUser, body, idempotencyKey, hash, stepped };
  const copied = await copiedPair(rates, body.fromCurrencyId, body.toCurrencyId);
  if (copied) {
    const first = await attemptSwap(attempt, copied);
    if (first !== STALE) return first;
    pairCopies.delete(rates);
  }
  const answer = await attemptSwap(attempt, null);
  if (answer === STALE) throw new Error('swap: a freshly read pair was answered as changed');
  return answer;
}

interface Attempt {
  database: Database;
  rates: RateSource;
  caller: SwapCaller;
  /** The caller's user: requireSession() once, unless knownUser() told it first. */
  user: () => Promise<{ id: number }>;
  knownUser: (id: number) => void;
  body: SwapApplyBody;
  idempotencyKey: string | null;
  hash: string;
  /** A second factor was checked for this swap (decision 033). */
  stepped: boolean;
}

/**
 * One try: priced from `copied` (STALE when that copy turns out old or refuses: the caller
 * tries again from a fresh read) or, when null, from a fresh read of the pair (the answer).
 */
async function attemptSwap(
  { database, rates, caller, user, knownUser, body, idempotencyKey, hash, stepped }: Attempt,
  copied: PricedPair | null,
): Promise<SwapApplyData | typeof STALE> {
  /** The quoted price: the session and the quote are read in one statement (the quote must be the user's). */
  const quoted = async (pair: PricedPair, quoteId: number): Promise<SwapPrice> => {
    const found = await sessionAndQuote(database, caller.tokenHash, quoteId);
    if (!found) {
      // No session, or a disabled account: requireSession() names which (2001, 2010).
      await user();
      throw new BizError(ErrorCode.NOT_SIGNED_IN);
    }
    knownUser(found.userId);
    return quoteHolds(found.quote, found.userId, body, pair);
  };
  let pair: PricedPair;
  let price: SwapPrice;
  try {
    pair = copied ?? (await pairFor(rates, body.fromCurrencyId, body.toCurrencyId));
    price = body.quoteId === undefined ? priceSwap(pair, body.amount) : await quoted(pair, body.quoteId);
  } catch (e) {
    // A refusal made from a copy is made again from a fresh read (the pair may have changed).
    if (copied) return STALE;
    // A caller without a session hears 2001 before anything else.
    const { id: userId } = await user();
    if (idempotencyKey) {
      // A replay answers what the first request got, even if its quote has expired or its pair
      // is unavailable since: the key's earlier answer wins over this refusal. A refusal of the
      // pair, the amount or the quote (3003, 3002, 3006) is kept under a fresh key like the
      // ledger's own (decision 012); one that is not kept (1001) leaves the key as it is.
      if ((await keepRefusal(database, 'swap', userId, idempotencyKey, hash, e)) !== 'kept') {
        const earlier = await replay(database, userId, idempotencyKey, hash);
        if (earlier) return earlier;
      }
    }
    throw e;
  }

  const item: SwapItem = {
    tokenHash: caller.tokenHash,
    key: idempotencyKey,
    hash,
    quoteId: body.quoteId ?? null,
    price,
    fromCurrencyId: pair.fromCurrencyId,
    toCurrencyId: pair.toCurrencyId,
    pairSignature: copied?.signature ?? null,
    stepped,
  };
  let result: SwapOutcome;
  try {
    // One item of coffer_swap_batch(), shared with the swaps that arrived with it; the writer
    // runs an item refused by a deadlock or serialization failure again.
    result = await groupCommit(database, SWAP_BATCH).submit(item);
  } catch (e) {
    rethrowLedgerError(e);
  }
  if (result.state === 'AUTH') {
    // No session, or a disabled account: requireSession() names which (2001, 2010).
    await caller.requireSession();
    throw new BizError(ErrorCode.NOT_SIGNED_IN);
  }
  if (result.state === 'PAIR') return STALE;
  if (result.state === 'STEPUP') throw new BizError(ErrorCode.SECOND_FACTOR_REQUIRED);
  if (result.state !== null) {
    if (result.state === QUOTE_SQLSTATE) throw quoteExpired('quoteId');
    rethrowLedgerError(Object.assign(new Error(`swap refused: SQLSTATE ${result.state}`), { code: result.state }));
  }
  if (result.keyConflict || result.swapId === null || result.userId === null) {
    throw new BizError(ErrorCode.IDEMPOTENCY_KEY_REUSED);
  }
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
  const record = await findOwnSwap(database, result.userId, result.swapId);
  if (!record) throw new Error(`swap ${result.swapId} vanished`);
  return { ...record, replayed: result.replayed };
}

/**
 * Checks the request's second factor when it carries one and the user opted in to it for swaps
 * (decision 033); a request without one costs nothing here (the batch answers 'STEPUP' when it
 * was needed), and a replay of a key that has its answer needs no new factor.
 */
async function stepUp(database: Database, user: () => Promise<{ id: number }>, proof: SwapApplyBody, key: string | null): Promise<boolean> {
  if (!hasStepUpProof(proof)) return false;
  const { id: userId } = await user();
  if (key && (await keyAnswered(database, userId, key))) return false;
  if (!(await stepUpRequired(database, userId, 'swap'))) return false;
  await passStepUp(database, userId, proof);
  return true;
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
