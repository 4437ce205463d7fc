import {
  apiResponse,
  emptyData,
  loginData,
  passkeyItem,
  passkeyLoginBody,
  passkeyLoginOptionsBody,
  passkeyOptionsData,
  passkeyRegisterBody,
  passkeyRegisterOptionsBody,
  passkeyRemoveBody,
  stepUpTokenData,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { PasskeyService } from './service.ts';

const tags = ['passkeys'];
const signedIn = [{ token: [] }];
const MINUTE = 60_000;

export async function passkeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config } = app.deps;
  const service = new PasskeyService(app.deps, app.log);
  const perIp = (max: number, timeWindow: number) => (config.RATE_LIMIT ? { max, timeWindow } : false);

  app.get(
    '/passkeys',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: "The user's passkeys", security: signedIn, response: apiResponse(z.array(passkeyItem)) },
    },
    async (request) => ok(await service.list(request.user.id), requestLocale(request)),
  );

  app.post(
    '/passkeys/register/options',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Options for navigator.credentials.create (startRegistration) and the challenge token',
        description:
          'Discoverable credential, user verification required; at most 20 passkeys (3009). Needs a recent ' +
          're-authentication of this session (POST /api/security/reauth, 300 s): 2013 without. With two-factor on, ' +
          'code (authenticator or recovery) here counts as one: 2007 wrong or replayed.',
        security: signedIn,
        body: passkeyRegisterOptionsBody,
        response: apiResponse(passkeyOptionsData),
      },
    },
    async (request) => ok(await service.registrationOptions(request.user, request.body.code), requestLocale(request)),
  );

  app.post(
    '/passkeys/register',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "Register the authenticator's answer as a passkey",
        description:
          '2009 when it cannot be verified (or is registered already); 2008 for a used or expired challenge; 2013 when ' +
          "the session's re-authentication ran out meanwhile.",
        security: signedIn,
        body: passkeyRegisterBody,
        response: apiResponse(passkeyItem),
      },
    },
    async (request) => ok(await service.register(request.user, request.body), requestLocale(request)),
  );

  app.post(
    '/passkeys/remove',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Remove a passkey',
        description: '4004 for an unknown or foreign id. With two-factor on, code is required (2006, 2007).',
        security: signedIn,
        body: passkeyRemoveBody,
        response: apiResponse(emptyData),
      },
    },
    async (request) => {
      await service.remove(request.user.id, request.body.id, request.body.code);
      return ok(null, requestLocale(request));
    },
  );

  app.post(
    '/stepup/passkey/options',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "Options for navigator.credentials.get to prove a money action with one of the user's passkeys",
        description: '2009 when the user has no passkey. The assertion goes to /api/stepup/passkey (decision 033).',
        security: signedIn,
        response: apiResponse(passkeyOptionsData),
      },
    },
    async (request) => ok(await service.stepUpOptions(request.user.id), requestLocale(request)),
  );

  app.post(
    '/stepup/passkey',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'A single-use step-up token for the next transfer, withdrawal or swap (its stepUpToken field)',
        description:
          '2009 when the passkey cannot be verified or is not the user’s; 2008 for an unknown, used, expired or ' +
          "another session's challenge. The token is good for one action within expiresIn seconds.",
        security: signedIn,
        body: passkeyLoginBody,
        response: apiResponse(stepUpTokenData),
      },
    },
    async (request) => ok(await service.stepUp(request.user.id, request.body), requestLocale(request)),
  );

  app.post(
    '/login/passkey/options',
    {
      config: { rateLimit: perIp(30, MINUTE) },
      schema: {
        tags,
        summary: 'Options for navigator.credentials.get (startAuthentication)',
        description:
          "Without challenge: a passwordless sign-in with any discoverable passkey. With the second-factor challenge of /api/login: that account's passkeys, instead of a code.",
        body: passkeyLoginOptionsBody,
        response: apiResponse(passkeyOptionsData),
      },
    },
    async (request) => ok(await service.loginOptions(request.body), requestLocale(request)),
  );

  app.post(
    '/login/passkey',
    {
      config: { rateLimit: perIp(30, MINUTE) },
      schema: {
        tags,
        summary: "Sign in with the authenticator's answer; answers the session as /api/login does",
        description: '2009 when the passkey cannot be verified; 2008 for an unknown, used or expired challenge.',
        body: passkeyLoginBody,
        response: apiResponse(loginData),
      },
    },
    async (request) => {
      const client = { ip: request.ip, userAgent: request.headers['user-agent'] };
      return ok(await service.login(request.body, client), requestLocale(request));
    },
  );
}
