import { adminUserDetail, adminUserPage, adminUserQuery, apiResponse, uidParams, userStatusBody } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { ROLE, security, tags } from './route-docs.ts';
import { searchUsers, setUserDisabled, userDetail } from './users.ts';

/** Users in the console: search, one user's page, disable and enable their sign-in (audited). */
export async function consoleUserRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.get(
    '/admin/users',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Users by e-mail substring or exact uid (?q=), newest first',
        description: ROLE,
        querystring: adminUserQuery,
        response: apiResponse(adminUserPage),
      },
    },
    async (request) => ok(await searchUsers(database, request.query), requestLocale(request)),
  );

  app.get(
    '/admin/users/:uid',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'One user: profile, sign-in state, two-factor, balances, last 20 postings, live sessions',
        description: `${ROLE} 4004 unknown uid.`,
        params: uidParams,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => ok(await userDetail(app.deps, request.params.uid), requestLocale(request)),
  );

  for (const action of ['disable', 'enable'] as const) {
    app.post(
      `/admin/users/:uid/${action}`,
      {
        preHandler: app.requireOperator,
        schema: {
          tags,
          security,
          summary:
            action === 'disable'
              ? "Disable a user's sign-in (2010 from then on) and end every session of theirs at once"
              : "Enable a disabled user's sign-in again",
          description: `${ROLE} 3007 oneself, another operator, or already so; 4004 unknown uid.`,
          params: uidParams,
          body: userStatusBody,
          response: apiResponse(adminUserDetail),
        },
      },
      async (request) =>
        ok(
          await setUserDisabled(app.deps, request.user, request.params.uid, action === 'disable', request.body.reason),
          requestLocale(request),
        ),
    );
  }
}
