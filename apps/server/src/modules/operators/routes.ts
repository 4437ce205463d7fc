import { apiResponse, operatorList, operatorRolesBody, operatorRolesData, operatorSessionData, uidParams } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { operatorSessionPolicy } from '../../core/session.ts';
import { bootstrapAdmin, listOperators, operatorSession, setOperatorRoles } from './service.ts';

const tags = ['admin'];
const security = [{ token: [] }];
const ADMIN = 'Operators with the admin role: HTTP 403 otherwise (3045 no second factor, 3046 session without it), 2001 signed out.';

/** Operators and their roles (decision 045); OPERATOR_EMAILS bootstraps the first admin at start. */
export async function operatorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, config } = app.deps;
  await bootstrapAdmin(database, config.OPERATOR_EMAILS, app.log);
  const policy = operatorSessionPolicy(config);

  app.get(
    '/operator/session',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The operator's own session: roles, second factor enrolled and passed, idle limit, end",
        description:
          'Any signed-in operator, with or without a second factor (the console shows what is missing). HTTP 403 for a user who is not an operator.',
        response: apiResponse(operatorSessionData),
      },
    },
    async (request) => ok(await operatorSession(database, request.user, policy), requestLocale(request)),
  );

  app.get(
    '/admin/operators',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: 'Every operator with roles, second factors and when last seen',
        description: ADMIN,
        response: apiResponse(operatorList),
      },
    },
    async (request) => ok(await listOperators(database), requestLocale(request)),
  );

  app.post(
    '/admin/operators/:uid/roles',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: "Set a user's whole operator role set (empty: no longer an operator; a user: becomes one), with a reason",
        description: `${ADMIN} Audited (operator.roles.set, before/after). 3047 it would leave no admin; 4004 unknown uid; changed false when nothing changes.`,
        params: uidParams,
        body: operatorRolesBody,
        response: apiResponse(operatorRolesData),
      },
    },
    async (request) => ok(await setOperatorRoles(database, request.user, request.params.uid, request.body), requestLocale(request)),
  );
}
