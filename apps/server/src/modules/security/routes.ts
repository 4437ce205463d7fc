import {
  antiPhishingBody,
  antiPhishingData,
  apiResponse,
  emptyData,
  idParams,
  revokeOthersData,
  securitySessionList,
  signInPage,
  signInsBody,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { SecurityService } from './service.ts';

const tags = ['security'];
const security = [{ token: [] }];

/** The security centre (/settings/security): sessions, sign-in history, anti-phishing phrase. */
export async function securityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new SecurityService(app.deps.database.db);

  app.get(
    '/security/sessions',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The user's active sessions, most recently used first (at most 100); current marks this one",
        description: 'lastSeenAt is written at most once a minute per session.',
        response: apiResponse(securitySessionList),
      },
    },
    async (request) => ok(await service.sessions(request.user.id, request.user.sessionId), requestLocale(request)),
  );

  app.post(
    '/security/sessions/:id/revoke',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Sign out one session (its token answers 2001 from now on)',
        description: '4004 when the id is not an active session of the user (another user’s included).',
        params: idParams,
        response: apiResponse(emptyData),
      },
    },
    async (request) => {
      await service.revoke(request.user.id, request.params.id);
      return ok(null, requestLocale(request));
    },
  );

  app.post(
    '/security/sessions/revokeOthers',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Sign out every session of the user but this one',
        response: apiResponse(revokeOthersData),
      },
    },
    async (request) => ok(await service.revokeOthers(request.user.id, request.user.sessionId), requestLocale(request)),
  );

  app.post(
    '/security/signins',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Sign-in attempts to the account (right or wrong password, sign-up), newest first',
        body: signInsBody,
        response: apiResponse(signInPage),
      },
    },
    async (request) => ok(await service.signIns(request.user.id, request.body.page, request.body.pageSize), requestLocale(request)),
  );

  app.get(
    '/security/antiPhishing',
    {
      preHandler: app.authenticate,
      schema: { tags, security, summary: 'Whether an anti-phishing phrase is set, masked', response: apiResponse(antiPhishingData) },
    },
    async (request) => ok(await service.antiPhishing(request.user.id), requestLocale(request)),
  );

  app.post(
    '/security/antiPhishing',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Set the anti-phishing phrase shown at the top of every Coffer mail to the user ("" removes it)',
        description: 'At most 32 characters, one line, no control or invisible characters (1001).',
        body: antiPhishingBody,
        response: apiResponse(antiPhishingData),
      },
    },
    async (request) => ok(await service.setAntiPhishing(request.user.id, request.body.phrase), requestLocale(request)),
  );
}
