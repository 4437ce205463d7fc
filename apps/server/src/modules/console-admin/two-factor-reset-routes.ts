import { adminUserDetail, apiResponse, twoFactorResetBody, uidParams } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { cancelReset, openReset } from '../two-factor/index.ts';
import { ROLE, security, tags } from './route-docs.ts';
import { userDetail } from './users.ts';

/** An operator opens or cancels the reset of a user's two-factor; both audited, the owner mailed. */
export async function consoleTwoFactorResetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/admin/users/:uid/two-factor-reset',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: "Open a reset of a user's two-factor (an owner who lost the authenticator and the recovery codes)",
        description:
          `${ROLE} The owner is mailed at once and may cancel it; after TWO_FACTOR_RESET_WAIT_HOURS (72 by default) the ` +
          'authenticator and recovery codes are removed and the owner is mailed again. Audited. 3007 two-factor off, a ' +
          'reset already open, oneself or another operator; 4004 unknown uid. Answers the user.',
        params: uidParams,
        body: twoFactorResetBody,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => {
      const { uid } = request.params;
      await openReset(app.deps, request.user, uid, request.body.reason, app.deps.config.TWO_FACTOR_RESET_WAIT_HOURS);
      return ok(await userDetail(app.deps, uid), requestLocale(request));
    },
  );

  app.post(
    '/admin/users/:uid/two-factor-reset/cancel',
    {
      preHandler: app.requireOperator,
      schema: {
        tags,
        security,
        summary: "Cancel a user's open two-factor reset",
        description: `${ROLE} The owner is mailed; audited. 4004 unknown uid or no open reset. Answers the user.`,
        params: uidParams,
        body: twoFactorResetBody,
        response: apiResponse(adminUserDetail),
      },
    },
    async (request) => {
      const { uid } = request.params;
      await cancelReset(app.deps, uid, { actor: request.user, role: 'operator', reason: request.body.reason });
      return ok(await userDetail(app.deps, uid), requestLocale(request));
    },
  );
}
