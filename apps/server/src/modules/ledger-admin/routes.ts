import {
  adjustBody,
  adjustDecisionBody,
  adjustOutcome,
  adjustRequest,
  adjustRequestList,
  adjustRequestQuery,
  apiResponse,
  auditReport,
  idParams,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { adjustBalance } from '../../ledger/adjust.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { anyCurrency } from '../../ledger/currencies.ts';
import { idempotencyKeyOf } from '../../core/idempotency-key.ts';
import { approveRequest, listRequests, needsSecondOperator, rejectRequest, requestAdjustment } from './requests.ts';

const tags = ['admin'];
const security = [{ token: [] }];

/** Operator tools for the ledger: adjustments (who and why) and the invariant audit. */
export async function ledgerAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.post(
    '/admin/ledger/adjust',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: "Credit or debit a user's available balance against the adjustments account (operators)",
        description:
          "HTTP 403 for non-operators. Above the currency's ADJUST_APPROVAL_ABOVE threshold nothing moves yet: the answer " +
          'is status "pending" with the request a second operator must approve. 3001 a debit beyond the balance, 3002 amount, ' +
          '3003 currency, 3004 user not found, 3010 Idempotency-Key reused with another body.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: adjustBody,
        response: apiResponse(adjustOutcome),
      },
    },
    async (request) => {
      const { email, uid, currency, amount, direction, reason } = request.body;
      const input = {
        user: uid !== undefined ? { uid } : { email: email ?? '' },
        currency,
        amount,
        direction,
        reason,
        idempotencyKey: idempotencyKeyOf(request),
      };
      const code = typeof currency === 'string' ? currency : String((await anyCurrency(database, currency)).code);
      const signed = direction === 'debit' ? `-${amount}` : amount;
      if (await needsSecondOperator(database, app.deps.config.ADJUST_APPROVAL_ABOVE, code, signed)) {
        const pending = await requestAdjustment(database, request.user, input);
        return ok({ status: 'pending' as const, request: pending }, requestLocale(request));
      }
      const data = await adjustBalance(database, { ...input, actor: request.user.email, actorUserId: request.user.id });
      return ok({ status: 'applied' as const, ...data }, requestLocale(request));
    },
  );

  app.get(
    '/admin/ledger/adjust-requests',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Adjustments waiting for (or decided by) a second operator, newest first (?status=pending by default)',
        querystring: adjustRequestQuery,
        response: apiResponse(adjustRequestList),
      },
    },
    async (request) => ok(await listRequests(database, request.query.status), requestLocale(request)),
  );

  for (const decision of ['approve', 'reject'] as const) {
    app.post(
      `/admin/ledger/adjust-requests/:id/${decision}`,
      {
        preHandler: app.requireOperator,
        schema: {
          tags,
          security,
          summary:
            decision === 'approve'
              ? 'Approve a waiting adjustment: it is posted now (a second, different operator only)'
              : 'Reject a waiting adjustment: nothing moves (a second, different operator only)',
          description:
            '3041 the operator who asked for it; 3007 already decided; 4004 unknown id; 3001 a debit the balance no longer covers.',
          params: idParams,
          body: adjustDecisionBody,
          response: apiResponse(adjustRequest),
        },
      },
      async (request) => {
        const decide = decision === 'approve' ? approveRequest : rejectRequest;
        return ok(await decide(database, request.user, request.params.id, request.body.reason), requestLocale(request));
      },
    );
  }

  app.get(
    '/admin/ledger/audit',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Check every ledger invariant (operators); data.ok is false when any check has violations',
        response: apiResponse(auditReport),
      },
    },
    async (request) => ok(await auditLedger(database), requestLocale(request)),
  );
}
