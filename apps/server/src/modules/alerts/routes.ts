import { alertAcknowledgeBody, alertList, apiResponse, idParams, operatorAlert } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { acknowledgeAlert, listAlerts } from './service.ts';

const tags = ['admin'];
const security = [{ token: [] }];
const ROLE = 'Operators only: HTTP 403 for a signed-in user, 2001 signed out.';

/** Alerts that reach operators: the list behind the console's badge, and acknowledging one. */
export async function alertRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.get(
    '/admin/alerts',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Operator alerts: the open ones and the latest resolved, newest first, with the count of open unacknowledged ones',
        description: `${ROLE} One alert per condition (open incident, reconciliation drift, hot wallet below its floor, payout waiting, withdrawal in review too long) while it lasts.`,
        response: apiResponse(alertList),
      },
    },
    async (request) => ok(await listAlerts(database), requestLocale(request)),
  );

  app.post(
    '/admin/alerts/:id/acknowledge',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Acknowledge an open alert: it leaves the badge but stays open until its condition clears',
        description: `${ROLE} Audited with the reason. 3050 resolved, 3051 already acknowledged, 4004 unknown id. Answers the alert.`,
        params: idParams,
        body: alertAcknowledgeBody,
        response: apiResponse(operatorAlert),
      },
    },
    async (request) => ok(await acknowledgeAlert(database, request.user, request.params.id, request.body.reason), requestLocale(request)),
  );
}
