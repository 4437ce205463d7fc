import {
  apiResponse,
  ErrorCode,
  houseLimitBody,
  houseLimitData,
  idParams,
  swapApplyBody,
  swapApplyData,
  swapQuoteBody,
  swapQuoteData,
  swapRatesData,
  swapRecord,
  swapRecordPage,
  swapRecordPageBody,
} from '@coffer/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BizError, notFound } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import { hashToken, requireSession, tokenFromRequest } from '../../core/session.ts';
import { idempotencyKeyOf } from '../../core/idempotency-key.ts';
import { createRateSource } from './rates/index.ts';
import { applyConfiguredHouseLimits, setHouseLimit } from './house-limits.ts';
import { QUOTE_RATE_TOLERANCE_BPS } from './quotes.ts';
import type { SwapCaller } from './apply.ts';
import { SwapService } from './service.ts';

const tags = ['swap'];
const signedIn = [{ token: [] }];

/**
 * Quotes a user may ask for per minute. Each one is a stored row; a person re-quotes by
 * hand every few seconds at most, a script did 400 in 2.4 s.
 */
export const SWAP_QUOTES_PER_USER_PER_MINUTE = 30;
const MINUTE_MS = 60_000;

export async function swapRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, database } = app.deps;
  const service = new SwapService(database, createRateSource(config, database));
  await applyConfiguredHouseLimits(database, config.HOUSE_LIMITS, app.log);

  /** /swap/apply resolves the session inside the swap statement (see apply.ts), as transfers do. */
  const callerOf = (request: FastifyRequest): SwapCaller => {
    const token = tokenFromRequest(request);
    if (!token) throw new BizError(ErrorCode.NOT_SIGNED_IN);
    return { tokenHash: hashToken(token), requireSession: () => requireSession(database.db, request) };
  };

  app.get(
    '/swap/rates',
    {
      schema: {
        tags,
        summary: 'Swap pairs with the rate a user gets',
        description:
          '`rate` is after the spread, `effectiveRate` after spread and fee; min/max are in the sold currency. ' +
          'Pairs without a fresh price are left out.',
        response: apiResponse(swapRatesData),
      },
    },
    async (request) => ok({ list: await service.listRates() }, requestLocale(request)),
  );

  app.post(
    '/swap/quote',
    {
      preHandler: app.authenticate,
      // Counted per user, so after the session check (the limiter's hook runs after it).
      config: {
        rateLimit: config.RATE_LIMIT
          ? {
              max: SWAP_QUOTES_PER_USER_PER_MINUTE,
              timeWindow: MINUTE_MS,
              hook: 'preHandler',
              keyGenerator: (request) => `user:${request.user.id}`,
            }
          : false,
      },
      schema: {
        tags,
        security: signedIn,
        summary: 'Quote a swap; the price holds for SWAP_QUOTE_TTL_SECONDS',
        description:
          '1001 same currency; 3003 unknown or unavailable pair; 3002 amount out of range or too many decimals. ' +
          `At most ${SWAP_QUOTES_PER_USER_PER_MINUTE} a minute per user (HTTP 429, code 1002).`,
        body: swapQuoteBody,
        response: apiResponse(swapQuoteData),
      },
    },
    async (request) => ok(await service.quote(request.user.id, request.body), requestLocale(request)),
  );

  app.post(
    '/swap/apply',
    {
      // The session is checked with the swap, so the body is validated first; a bad body from a
      // signed-out caller must still answer 2001, which only such a request pays a lookup for.
      attachValidation: true,
      schema: {
        tags,
        security: signedIn,
        summary: 'Swap: sell `amount` of fromCurrencyId for toCurrencyId (send an Idempotency-Key header)',
        description:
          `With quoteId the quoted amounts apply if the quote is the user's, matches the body, is unused and ` +
          `unexpired and the live rate moved at most ${QUOTE_RATE_TOLERANCE_BPS} bps, else 3006. Without it the ` +
          'live rate applies. 3001 insufficient balance, 3011 house limit reached, 3010 key reused with another body; ' +
          'the same key and body answer the first swap again (replayed: true) without moving money twice, or its ' +
          'refusal (3001, 3002, 3003, 3006, 3011) again.',
        body: swapApplyBody,
        response: apiResponse(swapApplyData),
      },
    },
    async (request) => {
      if (request.validationError) {
        await requireSession(database.db, request);
        throw request.validationError;
      }
      const caller = callerOf(request);
      let key: string | null;
      try {
        key = idempotencyKeyOf(request);
      } catch (e) {
        // 2001 first, as for a bad body.
        await caller.requireSession();
        throw e;
      }
      return ok(await service.apply(caller, request.body, key), requestLocale(request));
    },
  );

  app.post(
    '/swap/swapRecordPage',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: signedIn,
        summary: "The user's swaps, newest first",
        body: swapRecordPageBody,
        response: apiResponse(swapRecordPage),
      },
    },
    async (request) => ok(await service.page(request.user.id, request.body), requestLocale(request)),
  );

  app.get(
    '/swap/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: signedIn,
        summary: 'One of the user’s swaps (4004 otherwise)',
        params: idParams,
        response: apiResponse(swapRecord),
      },
    },
    async (request) => {
      const record = await service.findOwn(request.user.id, request.params.id);
      if (!record) throw notFound();
      return ok(record, requestLocale(request));
    },
  );

  app.post(
    '/swap/admin/houseLimit',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security: signedIn,
        summary: 'Operator: how much of a currency the house may owe (its floor becomes −limit)',
        body: houseLimitBody,
        response: apiResponse(houseLimitData),
      },
    },
    async (request) => {
      // Audited like /api/admin/swap/house-limits (this older path carries no reason).
      const by = { ...operatorOf(request.user), reason: null };
      const { changed: _changed, ...data } = await setHouseLimit(database, request.body.currencyId, request.body.limit, by);
      return ok(data, requestLocale(request));
    },
  );
}
