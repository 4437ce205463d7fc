import { adjustmentPage, adjustmentQuery, apiResponse, ledgerAuditRunData } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import { adjustmentsPage, runLedgerAudit } from './ledger.ts';
import { ROLE, security, tags } from './route-docs.ts';

/** The ledger in the console: run the audit (audited), read the adjustments log. */
export async function consoleLedgerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.post(
    '/admin/ledger/audit/run',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Run every ledger check and keep the result (the dashboard shows the latest)',
        description: ROLE,
        response: apiResponse(ledgerAuditRunData),
      },
    },
    async (request) => ok(await runLedgerAudit(database, operatorOf(request.user)), requestLocale(request)),
  );

  app.get(
    '/admin/ledger/adjustments',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'The adjustments log, newest first (?uid= one user)',
        description: ROLE,
        querystring: adjustmentQuery,
        response: apiResponse(adjustmentPage),
      },
    },
    async (request) => ok(await adjustmentsPage(database, request.query), requestLocale(request)),
  );
}
