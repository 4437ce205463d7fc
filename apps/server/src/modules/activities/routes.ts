import {
  activityAdmin,
  activityAdminList,
  activityCreateBody,
  activityDetails as activityDetailsSchema,
  activityDetailsBody,
  activityFundBody,
  activityFundResult,
  activityList as activityListSchema,
  activityPayouts as activityPayoutsSchema,
  activityPayoutsQuery,
  activityRankQuery,
  activityRanking as activityRankingSchema,
  activityUpdateBody,
  activityUserRank as activityUserRankSchema,
  activityUserRankQuery,
  apiResponse,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLocale } from '../../core/locale.ts';
import { operatorOf } from '../../core/operator-audit.ts';
import { ok } from '../../core/reply.ts';
import { idempotencyKeyOf } from '../../core/idempotency-key.ts';
import { activityPayouts, adminActivityList, createActivity, fundActivity, updateActivity } from './admin.ts';
import { activityDetails, activityList, activityRanking, activityUserRank } from './public.ts';

const tags = ['activity'];
const adminTags = ['admin'];
const signedIn = [{ token: [] }];

/** Activities: public ranking pages and the operators' tools (decision 015). */
export async function activityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.get(
    '/activity/getAllRank',
    {
      schema: {
        tags,
        summary: 'Top N of an activity (public): rank, masked name, avatar, score, prize',
        description: 'limit 1-100 (default 20). 4004 unknown activity. Ties: score, then who reached it first, then uid.',
        querystring: activityRankQuery,
        response: apiResponse(activityRankingSchema),
      },
    },
    async (request) => ok(await activityRanking(database, request.query.id, request.query.limit), requestLocale(request)),
  );

  app.get(
    '/activity/getUserRank',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: signedIn,
        summary: "The caller's rank, score, the minimum to qualify and the gap to the next prize rank",
        description: '2001 signed out; 4004 unknown activity.',
        querystring: activityUserRankQuery,
        response: apiResponse(activityUserRankSchema),
      },
    },
    async (request) => ok(await activityUserRank(database, request.query.id, request.user.id), requestLocale(request)),
  );

  app.post(
    '/activity/details',
    {
      schema: {
        tags,
        summary: 'An activity (public): title and rules (HTML) in the asked language, window, status, prize table, funding',
        description: '4004 unknown activity.',
        body: activityDetailsBody,
        response: apiResponse(activityDetailsSchema),
      },
    },
    async (request) => {
      const locale = requestLocale(request);
      return ok(await activityDetails(database, request.body.id, locale), locale);
    },
  );

  app.get(
    '/activity/list',
    {
      schema: {
        tags,
        summary: 'Live, upcoming and recently closed activities (public), live first',
        response: apiResponse(activityListSchema),
      },
    },
    async (request) => {
      const locale = requestLocale(request);
      return ok(await activityList(database, locale), locale);
    },
  );

  app.post(
    '/admin/activities/create',
    {
      preHandler: app.requireOperator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Create an activity (operators; audited as activity.create)',
        description: 'HTTP 403 for non-operators. 1001 bad fields, 3002 an amount with too many decimals, 3003 unknown currency.',
        body: activityCreateBody,
        response: apiResponse(activityAdmin),
      },
    },
    async (request) => ok(await createActivity(database, operatorOf(request.user), request.body), requestLocale(request)),
  );

  app.post(
    '/admin/activities/update',
    {
      preHandler: app.requireOperator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Change an activity (operators; audited as activity.update)',
        description:
          'Titles and rules any time before settlement; other fields only before the start (6020); the prize currency ' +
          'only while unfunded (6022); 6021 once the winners are fixed; 4004 unknown activity.',
        body: activityUpdateBody,
        response: apiResponse(activityAdmin),
      },
    },
    async (request) => ok(await updateActivity(database, operatorOf(request.user), request.body), requestLocale(request)),
  );

  app.post(
    '/admin/activities/fund',
    {
      preHandler: app.requireOperator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: "Fund an activity's prizes from the adjustments account (operators; audited as activity.fund)",
        description:
          '3002 amount (decimals), 3010 Idempotency-Key reused with another body, 4004 unknown activity, 6021 winners already fixed.',
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: activityFundBody,
        response: apiResponse(activityFundResult),
      },
    },
    async (request) =>
      ok(await fundActivity(database, operatorOf(request.user), request.body, idempotencyKeyOf(request)), requestLocale(request)),
  );

  app.get(
    '/admin/activities/list',
    {
      preHandler: app.requireOperator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: 'Every activity with status, funding and payout progress (operators), newest first',
        response: apiResponse(activityAdminList),
      },
    },
    async (request) => ok(await adminActivityList(database), requestLocale(request)),
  );

  app.get(
    '/admin/activities/payouts',
    {
      preHandler: app.requireOperator,
      schema: {
        tags: adminTags,
        security: signedIn,
        summary: "An activity's winners and their payouts (operators)",
        description: '4004 unknown activity.',
        querystring: activityPayoutsQuery,
        response: apiResponse(activityPayoutsSchema),
      },
    },
    async (request) => ok(await activityPayouts(database, request.query.id), requestLocale(request)),
  );
}
