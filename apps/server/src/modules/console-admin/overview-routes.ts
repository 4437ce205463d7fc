import { apiResponse, auditTrailPage, auditTrailQuery, dashboardData } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { auditTrail } from './audit-trail.ts';
import { dashboard } from './dashboard.ts';
import { ROLE, security, tags } from './route-docs.ts';

/** The console's overview: the dashboard and the operator audit trail (reads). */
export async function consoleOverviewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.get(
    '/admin/audit-trail',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'The operator audit trail, newest first (filters: actor, action or its dotted prefix, target)',
        description: ROLE,
        querystring: auditTrailQuery,
        response: apiResponse(auditTrailPage),
      },
    },
    async (request) => ok(await auditTrail(database, request.query), requestLocale(request)),
  );

  app.get(
    '/admin/dashboard',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Users, balances per currency, swap volume (24 h, 7 d), withdrawals in review, the last ledger audit',
        description: ROLE,
        response: apiResponse(dashboardData),
      },
    },
    async (request) => ok(await dashboard(database), requestLocale(request)),
  );
}
