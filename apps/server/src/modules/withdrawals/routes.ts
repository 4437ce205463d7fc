import {
  apiResponse,
  idParams,
  withdrawApplyBody,
  withdrawApplyData,
  withdrawLimits,
  withdrawListBody,
  withdrawPage,
  withdrawQuoteBody,
  withdrawQuoteData,
  withdrawQuoteQuery,
  withdrawRecord,
  withdrawReviewBody,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { idempotencyKeyOf } from '../../core/idempotency-key.ts';
import { createRateSource } from '../swap/index.ts';
import { type FeeChain, quoteWithdrawFee } from './fee-quote.ts';
import {
  applyWithdrawal,
  cancelWithdrawal,
  reviewWithdrawal,
  withdrawalPage,
  withdrawalRecord,
  withdrawLimits as limitsOf,
} from './service.ts';

const tags = ['withdraw'];
const security = [{ token: [] }];
const idempotencyHeader = z.object({ 'idempotency-key': z.string().optional() });
/** Fee quotes a user may ask for per minute (each is a stored row; the app re-quotes every two minutes at most). */
export const WITHDRAW_QUOTES_PER_USER_PER_MINUTE = 30;

const APPLY_ERRORS =
  'Errors: 2001 not signed in, 2004 wrong or expired e-mail code (sendMail type=withdraw), 3001 insufficient ' +
  'balance (amount + fee), 3002 amount out of range or too many decimals, 3003 network unavailable or not of this ' +
  'currency, 3008 invalid address (checksum), 3009 daily limit exceeded, 3010 Idempotency-Key reused with another ' +
  'body, 3012 payouts frozen on this network, 3013 destination burns funds (zero address, precompile, token ' +
  'contract), 3014 security hold after a credential change (time left in the message), 3015 address-book ' +
  'entry still waiting (time left), 3016 outside the address book with whitelist only on, 3019 fee quote expired, ' +
  '3020 fee quote already used, 3021 fee quote unknown (or another user’s), 3022 fee quote of another network. A replay with the same key and body answers the same withdrawal, ' +
  'or the same refusal if the ledger refused it once the code was accepted (no new code needed for either).';

export async function withdrawRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, chain, config } = app.deps;
  const rates = createRateSource(config, database);
  // each network's fee is quoted on its own chain (docs/decisions/050-several-networks.md)
  const feeChain = (chainId: number): FeeChain | null => {
    const payouts = chain.utxo?.chainId === chainId ? chain.utxo.payouts : null;
    if (payouts) return { chainId, feeRate: (networkId: number) => payouts.quoteRate(networkId) };
    const live = chain.liveFor(chainId);
    return live ? { chainId, client: live.adapter.client, hot: chain.hotAddress } : null;
  };

  app.post(
    '/withdraw/quote',
    {
      preHandler: app.authenticate,
      config: {
        rateLimit: config.RATE_LIMIT
          ? {
              max: WITHDRAW_QUOTES_PER_USER_PER_MINUTE,
              timeWindow: 60_000,
              hook: 'preHandler',
              keyGenerator: (request) => `user:${request.user.id}`,
            }
          : false,
      },
      schema: {
        tags,
        security,
        summary: 'Quote the withdrawal fee from the chain (holds for WITHDRAW_FEE_QUOTE_TTL_SECONDS, one withdrawal)',
        description:
          'The payout’s gas (estimated from the hot wallet; amount and address make it exact) at the chain’s gas price, ' +
          'plus the network’s margin; a token network’s at the swap rate; rounded up to the display precision, never ' +
          'below the network’s minimum fee. feesHigh: the chain is above the network’s gas price cap, payouts wait for ' +
          'fees to fall (the fee is priced at the cap). Errors: 3003 network unavailable (no chain node, no swap rate), ' +
          '3002 amount, 3008 / 3013 address.',
        body: withdrawQuoteBody,
        response: apiResponse(withdrawQuoteData),
      },
    },
    async (request) =>
      ok(await quoteWithdrawFee(database, feeChain, chain.rules, rates, request.user.id, request.body), requestLocale(request)),
  );

  app.post(
    '/withdraw/apply',
    {
      preHandler: app.authenticate,
      config: { rateLimit: config.RATE_LIMIT ? { max: 20, timeWindow: 60_000 } : false },
      schema: {
        tags,
        security,
        summary: 'Withdraw to an on-chain address (amount + fee held until it settles)',
        description: APPLY_ERRORS,
        headers: idempotencyHeader,
        body: withdrawApplyBody,
        response: apiResponse(withdrawApplyData),
      },
    },
    async (request) => {
      const data = await applyWithdrawal(database, chain.rules, request.user, request.body, idempotencyKeyOf(request));
      chain.notify();
      return ok(data, requestLocale(request));
    },
  );

  app.get(
    '/withdraw/limits',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Fee, bounds and what is left of today’s limit on a network',
        querystring: withdrawQuoteQuery,
        response: apiResponse(withdrawLimits),
      },
    },
    async (request) => ok(await limitsOf(database, request.user.id, request.query.networkId), requestLocale(request)),
  );

  app.post(
    '/withdraw/list',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The user's withdrawals, newest first",
        body: withdrawListBody,
        response: apiResponse(withdrawPage),
      },
    },
    async (request) => ok(await withdrawalPage(database, request.user.id, request.body), requestLocale(request)),
  );

  app.get(
    '/withdraw/detail/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'One withdrawal of the user (4004 otherwise)',
        params: idParams,
        response: apiResponse(withdrawRecord),
      },
    },
    async (request) => ok(await withdrawalRecord(database, request.params.id, request.user.id), requestLocale(request)),
  );

  app.post(
    '/withdraw/cancel/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Cancel before broadcast (review or queued): amount + fee go back to available',
        description: 'Errors: 3007 already broadcast or final, 4004 not found.',
        params: idParams,
        response: apiResponse(withdrawRecord),
      },
    },
    async (request) => ok(await cancelWithdrawal(database, request.user.id, request.params.id), requestLocale(request)),
  );

  for (const decision of ['approve', 'reject'] as const) {
    app.post(
      `/admin/withdraw/:id/${decision}`,
      {
        preHandler: app.requireOperator,
        schema: {
          tags: ['admin'],
          security,
          summary: `Operators: ${decision} a withdrawal waiting for review (reason recorded)`,
          description: 'Errors: 3007 not waiting for review, 4004 not found; HTTP 403 without the operator role.',
          params: idParams,
          body: withdrawReviewBody,
          response: apiResponse(withdrawRecord),
        },
      },
      async (request) => {
        const data = await reviewWithdrawal(database, request.user, request.params.id, decision, request.body.reason);
        chain.notify();
        return ok(data, requestLocale(request));
      },
    );
  }
}
