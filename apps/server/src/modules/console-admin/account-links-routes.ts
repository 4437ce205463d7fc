import { accountLinkBody, accountLinkParams, accountLinkRemoveBody, adminUserDetail, apiResponse, uidParams } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { linkAccounts, unlinkAccounts } from './account-links.ts';
import { ROLE, security, tags } from './route-docs.ts';
import { userDetail } from './users.ts';

/** Link two user accounts (their transfers to each other do not count in activity rankings), and remove a link. Both audited. */
export async function accountLinkRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;

  app.post(
    '/admin/users/:uid/links',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Link another account to this user (the same person, one household): transfers between them stop counting in activities',
        description: `${ROLE} Audited (user.link) with the reason. 3054 the same account, 3053 linked already, 3007 an operator's account, 4004 unknown uid. Answers the user.`,
        params: uidParams,
        body: accountLinkBody,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => {
      await linkAccounts(database, request.user, request.params.uid, request.body.uid, request.body.reason);
      return ok(await userDetail(app.deps, request.params.uid), requestLocale(request));
    },
  );

  app.post(
    '/admin/users/:uid/links/:id/remove',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: "Remove a link of this user's (the row stays as history, with who removed it and why)",
        description: `${ROLE} Audited (user.unlink) with the reason. 3055 removed already, 4004 no such link on this user. Answers the user.`,
        params: accountLinkParams,
        body: accountLinkRemoveBody,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => {
      await unlinkAccounts(database, request.user, request.params.uid, request.params.id, request.body.reason);
      return ok(await userDetail(app.deps, request.params.uid), requestLocale(request));
    },
  );
}
