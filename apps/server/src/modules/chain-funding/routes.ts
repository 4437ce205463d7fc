import { apiResponse, ErrorCode, fundHotWalletBody, fundHotWalletData } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Hex } from 'viem';
import { bookFunding, FundingError } from '../../chain/funding.ts';
import { BizError } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';

/**
 * Operators: book a funding of the hot wallet (or the network's cold address) as the
 * network's float, after checking the transaction on chain; once per transaction, audited as
 * 'chain.fund' (docs/decisions/038). The console's counterpart of `npm run chain:fund`.
 */
export async function chainFundingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, chain } = app.deps;

  app.post(
    '/admin/chain/fund',
    {
      preHandler: app.requireOperator,
      schema: {
        tags: ['admin'],
        security: [{ token: [] }],
        summary: 'Operators: book a funding of the hot wallet as the float (checked on chain, once per transaction)',
        description:
          'Errors: 3031 the transaction paid nothing to the hot wallet on that network (or is Coffer’s own), 4004 no such network.',
        body: fundHotWalletBody,
        response: apiResponse(fundHotWalletData),
      },
    },
    async (request) => {
      const { networkId, txHash, reason } = request.body;
      if (!chain.live) throw new BizError(ErrorCode.FUNDING_REFUSED, 'no chain connected');
      const [net] = await database.sql.query<{ chain_id: number }>('select chain_id from networks where id = $1', [networkId]);
      // the funding is checked on the network's own chain
      const client = net ? chain.liveFor(net.chain_id)?.adapter.client : undefined;
      if (!client) throw new BizError(ErrorCode.NOT_FOUND);
      try {
        const booked = await bookFunding(database, client, chain.hotAddress, {
          networkId,
          hash: txHash.toLowerCase() as Hex,
          reason: reason.trim(),
          actor: request.user.email,
          actorUserId: request.user.id,
        });
        return ok(booked, requestLocale(request));
      } catch (e) {
        if (e instanceof FundingError) throw new BizError(ErrorCode.FUNDING_REFUSED, e.message);
        throw e;
      }
    },
  );
}
