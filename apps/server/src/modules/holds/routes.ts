import { apiResponse, idParams, securityHoldCancelBody, securityHoldData } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { requireSecondFactor, twoFactorEnabled } from '../two-factor/index.ts';
import { cancelHold, holdState, type SecondFactorCheck } from './service.ts';

const tags = ['security'];
const security = [{ token: [] }];

/** The withdrawal hold after a credential change: read it, end it early with the second factor. */
export async function holdRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;
  const secondFactorOf = (userId: number, code?: string): SecondFactorCheck => ({
    enabled: () => twoFactorEnabled(database, userId),
    verify: () => requireSecondFactor(database, userId, code),
  });

  app.get(
    '/security/hold',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The withdrawal hold in force (reason, end, seconds left), or null; canCancel when two-factor is on',
        response: apiResponse(securityHoldData),
      },
    },
    async (request) => ok(await holdState(database, request.user.id, secondFactorOf(request.user.id)), requestLocale(request)),
  );

  app.post(
    '/security/hold/cancel/:id',
    {
      preHandler: app.authenticate,
      config: { rateLimit: app.deps.config.RATE_LIMIT ? { max: 10, timeWindow: 60_000 } : false },
      schema: {
        tags,
        security,
        summary: 'End the hold early with an authenticator or recovery code (every active hold of the user ends)',
        description:
          'Errors: 1001 malformed code, 2007 wrong or used code, 3007 two-factor is off (the hold must run out), ' +
          '4004 not an active hold of this user.',
        params: idParams,
        body: securityHoldCancelBody,
        response: apiResponse(securityHoldData),
      },
    },
    async (request) =>
      ok(
        await cancelHold(database, request.user.id, request.params.id, secondFactorOf(request.user.id, request.body.code)),
        requestLocale(request),
      ),
  );
}
