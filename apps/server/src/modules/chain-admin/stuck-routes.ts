import { apiResponse, ErrorCode, idParams, stuckPayoutBody, stuckPayoutResult } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cancelOnChain, failUnmineable, type StuckPayoutDeps, StuckPayoutRefusal } from '../../chain/stuck-payouts.ts';
import { BizError } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import type { Query } from '../../db/transaction.ts';

const tags = ['admin'];
const security = [{ token: [] }];

const REFUSALS = {
  not_found: ErrorCode.NOT_FOUND,
  not_broadcast: ErrorCode.NOT_ALLOWED_IN_STATE,
  other_chain: ErrorCode.NOT_ALLOWED_IN_STATE,
  cap_reached: ErrorCode.GAS_PRICE_CAP_REACHED,
  still_mineable: ErrorCode.PAYOUT_STILL_MINEABLE,
} as const;

async function refusing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof StuckPayoutRefusal) throw new BizError(REFUSALS[e.refusal]);
    throw e;
  }
}

/** Operators: a payout stuck past its limits (docs/decisions/037), from the console's withdrawals page. */
export async function stuckPayoutRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, chain } = app.deps;
  // the chain of the withdrawal's network (docs/decisions/050-several-networks.md)
  const deps = async (withdrawalId: number): Promise<StuckPayoutDeps> => {
    const [row] = await database.sql.query<{ chain_id: number }>(
      'select n.chain_id from withdrawals w join networks n on n.id = w.network_id where w.id = $1',
      [withdrawalId],
    );
    const live = row ? chain.liveFor(row.chain_id) : chain.live;
    if (!live) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    return { database, client: live.adapter.client, hot: chain.wallet.hotAccount({ purpose: 'cancel' }), chainId: live.chainId };
  };
  const status = async (id: number) => {
    const [w] = await database.sql.query<{ status: string; tx_hash: string | null }>(
      'select status, tx_hash from withdrawals where id = $1',
      [id],
    );
    return { id, status: w?.status ?? 'unknown', txHash: w?.tx_hash ?? null };
  };

  app.post(
    '/admin/withdraw/:id/cancel-on-chain',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: "Operators: replace a stuck payout's nonce with a zero-value transfer to the hot wallet at a higher price",
        description:
          'The user is refunded by the sender once that replacement is final, never before (the original could still be mined). ' +
          'Errors: 3007 not broadcast, 3024 the gas price cap leaves no room, 4004 not found.',
        params: idParams,
        body: stuckPayoutBody,
        response: apiResponse(stuckPayoutResult),
      },
    },
    async (request) => {
      const { id } = request.params;
      const audit = (q: Query, before: object, after: object) =>
        recordOperatorAction(q, {
          ...operatorOf(request.user),
          action: 'withdrawal.cancel_on_chain',
          targetType: 'withdrawal',
          targetId: id,
          reason: request.body.reason,
          before,
          after,
        });
      await refusing(async () => cancelOnChain(await deps(id), id, audit));
      return ok(await status(id), requestLocale(request));
    },
  );

  app.post(
    '/admin/withdraw/:id/fail',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Operators: mark a stuck payout failed and refund it, when no attempt of it can be mined any more',
        description: 'Errors: 3007 not broadcast, 3023 an attempt can still be mined, 4004 not found.',
        params: idParams,
        body: stuckPayoutBody,
        response: apiResponse(stuckPayoutResult),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { reason } = request.body;
      const audit = (q: Query, before: object, after: object) =>
        recordOperatorAction(q, {
          ...operatorOf(request.user),
          action: 'withdrawal.fail_unmineable',
          targetType: 'withdrawal',
          targetId: id,
          reason,
          before,
          after,
        });
      await refusing(async () => failUnmineable(await deps(id), id, reason, request.user.id, audit));
      return ok(await status(id), requestLocale(request));
    },
  );
}
