import { adjustBody, adjustResult, apiResponse, auditReport } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { adjustBalance } from '../../ledger/adjust.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { idempotencyKeyOf } from '../../core/idempotency-key.ts';

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
          'HTTP 403 for non-operators. 3001 a debit beyond the balance, 3002 amount, 3003 currency, 3004 user not found, ' +
          '3010 Idempotency-Key reused with another body.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: adjustBody,
        response: apiResponse(adjustResult),
      },
    },
    async (request) => {
      const { email, uid, currency, amount, direction, reason } = request.body;
      const data = await adjustBalance(database, {
        user: uid !== undefined ? { uid } : { email: email ?? '' },
        currency,
        amount,
        direction,
        reason,
        actor: request.user.email,
        actorUserId: request.user.id,
        idempotencyKey: idempotencyKeyOf(request),
      });
      return ok(data, requestLocale(request));
    },
  );

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
