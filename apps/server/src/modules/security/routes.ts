import {
  antiPhishingBody,
  antiPhishingData,
  apiResponse,
  changePasswordBody,
  changePasswordData,
  emptyData,
  idParams,
  revokeOthersData,
  securitySessionList,
  signInPage,
  signInsBody,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { holdAfter } from '../holds/index.ts';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { changePassword } from './change-password.ts';
import { SecurityService } from './service.ts';

const tags = ['security'];
const security = [{ token: [] }];

/** The security centre (/settings/security): sessions, sign-in history, anti-phishing phrase, password change. */
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
        summary: 'Sign-in attempts to the account (sign-up, a wrong password, a wrong second factor, a success: kind), newest first',
        body: signInsBody,
        response: apiResponse(signInPage),
      },
    },
    async (request) => ok(await service.signIns(request.user.id, request.body.page, request.body.pageSize), requestLocale(request)),
  );

  app.post(
    '/security/changePassword',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Change the password: the current one, the second factor when two-factor is on, optionally sign out the other sessions',
        description:
          '1001 naming newPassword for a short, long, common or guessable one or one with control, invisible or bidirectional ' +
          'characters; 2012 for a wrong current password (5 wrong per account and 15 minutes, then 1002); 2006 without and ' +
          '2007 with a wrong authenticator or recovery code while two-factor is on. signOutOthers ends every other session ' +
          '(and its event streams) at once; signedOut counts them. The owner is mailed, and withdrawals wait ' +
          'WITHDRAWAL_HOLD_HOURS (a security hold).',
        body: changePasswordBody,
        response: apiResponse(changePasswordData),
      },
    },
    async (request) => {
      const locale = requestLocale(request);
      const client = { ip: request.ip, userAgent: request.headers['user-agent'] };
      const data = await changePassword(app.deps, request.user, request.body, locale, client);
      // A new password is a credential change: withdrawals wait and the owner is told (docs/security.md).
      await holdAfter(app.deps, request.user.id, 'password_changed', client);
      return ok(data, locale);
    },
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
