import { adminUserDetail, apiResponse, uidParams, userSupportBody } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { endHolds, forceSignOut } from './support.ts';
import { ROLE, security, tags } from './route-docs.ts';
import { userDetail } from './users.ts';

/** Support actions on a user's console page: force a sign-out, end a withdrawal hold. Both audited. */
export async function consoleSupportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.post(
    '/admin/users/:uid/sign-out',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'End every live session of a user now (each of their devices is signed out; they may sign in again)',
        description: `${ROLE} Audited with the reason. 3007 no live session, oneself or another operator; 4004 unknown uid. Answers the user.`,
        params: uidParams,
        body: userSupportBody,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => {
      await forceSignOut(database, request.user, request.params.uid, request.body.reason);
      return ok(await userDetail(app.deps, request.params.uid), requestLocale(request));
    },
  );

  app.post(
    '/admin/users/:uid/holds/end',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'End the withdrawal holds in force on a user (the owner confirmed the credential change was theirs)',
        description: `${ROLE} Audited with the holds ended. 3007 no hold in force, oneself or another operator; 4004 unknown uid. Answers the user.`,
        params: uidParams,
        body: userSupportBody,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => {
      await endHolds(database, request.user, request.params.uid, request.body.reason);
      return ok(await userDetail(app.deps, request.params.uid), requestLocale(request));
    },
  );
}
