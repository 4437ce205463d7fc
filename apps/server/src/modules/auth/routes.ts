import {
  reauthBody,
  reauthData,
  apiResponse,
  currentUser,
  emptyData,
  ErrorCode,
  loginAnswer,
  loginBody,
  loginData,
  registerBody,
  resetPasswordBody,
  sendMailQuery,
  updateUserInfoBody,
} from '@coffer/contract';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BizError } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import { requireSession } from '../../core/session.ts';
import { onCodeGuessCapReached } from './email-codes.ts';
import { LOGIN_PER_ADDRESS_AND_IP, LOGIN_PER_IP, loginPerAddressAndIpKey } from './login-limits.ts';
import { reauthenticate, reauthStatus } from './reauth.ts';
import { AuthService, type ClientInfo } from './service.ts';

const tags = ['auth'];
const signedIn = [{ token: [] }];

const MINUTE = 60_000;

function clientInfo(request: FastifyRequest): ClientInfo {
  return { locale: requestLocale(request), ip: request.ip, userAgent: request.headers['user-agent'] };
}

export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, database } = app.deps;
  const service = new AuthService(app.deps, app.log);
  // Whoever checks a code (the withdraw flow too) reaches this mailer when the cap is hit.
  onCodeGuessCapReached(database.db, (event) => {
    service.alertCodeGuessCap(event).catch((err: unknown) => app.log.error({ err }, 'code guess alert mail failed'));
  });

  // Per-IP limits run before the body is parsed (the plugin's default key is the client IP,
  // IPv6 grouped by subnet). RATE_LIMIT=off turns every limit here off, for load tests.
  const perIp = (max: number, timeWindow: number) => (config.RATE_LIMIT ? { max, timeWindow } : false);

  // Per (address, IP) login limit: strict, but only for that client, so nobody can lock the
  // owner out from elsewhere (per address the service slows down instead, login-limits.ts).
  // It needs the validated body, so it is a preHandler; the plugin lets only one of its own
  // hooks run per request, hence createRateLimit, which only counts and leaves the answer to us.
  const loginPerEmailAndIp = config.RATE_LIMIT
    ? app.createRateLimit({
        max: LOGIN_PER_ADDRESS_AND_IP.max,
        timeWindow: LOGIN_PER_ADDRESS_AND_IP.windowMs,
        keyGenerator: (req) => loginPerAddressAndIpKey((req.body as { email: string }).email, normalizeIP(req.ip)),
      })
    : undefined;

  app.get(
    '/sendMail',
    {
      config: { rateLimit: perIp(10, MINUTE) },
      schema: {
        tags,
        summary: 'Mail a 6-digit code (register, reset or withdraw)',
        description:
          'The code is valid 10 minutes and dies after 5 wrong tries; one mail per address and type per minute ' +
          '(1002 when asked sooner); after 10 wrong codes for an address and type within 24 hours, 2005 ' +
          '(the owner is mailed once). register: 2003 when the address is taken. reset: always code 0, mailed only ' +
          'to registered addresses. withdraw: needs X-Token of the user owning the address (2001, 1001). ' +
          'The mail is in the accept-language of the request.',
        querystring: sendMailQuery,
        response: apiResponse(emptyData),
      },
    },
    async (request) => {
      const client = clientInfo(request);
      await service.sendMail(request.query, client, () => requireSession(database.db, request));
      return ok(null, client.locale);
    },
  );

  app.post(
    '/register',
    {
      config: { rateLimit: perIp(20, MINUTE) },
      schema: {
        tags,
        summary: 'Create an account with a register code; signs it in',
        description:
          'Answers the same data as /api/login: store tokenHead + token and send it as X-Token. ' +
          '2004 wrong, expired or used-up code; 2005 too many wrong codes for the address (24 h); ' +
          '2003 address already registered; 1001 naming password for a common or trivially guessable password.',
        body: registerBody,
        response: apiResponse(loginData),
      },
    },
    async (request) => {
      const client = clientInfo(request);
      return ok(await service.register(request.body, client), client.locale);
    },
  );

  app.post(
    '/login',
    {
      config: { rateLimit: perIp(LOGIN_PER_IP.max, LOGIN_PER_IP.windowMs) },
      preHandler: async (request, reply) => {
        if (!loginPerEmailAndIp) return;
        const limit = await loginPerEmailAndIp(request);
        if (!limit.isAllowed && limit.isExceeded) {
          reply.header('retry-after', limit.ttlInSeconds);
          throw new BizError(ErrorCode.TOO_MANY_REQUESTS, undefined, 429);
        }
      },
      schema: {
        tags,
        summary: 'Sign in with e-mail and password',
        description:
          '2002 for a wrong e-mail or password alike. Limited to 30 a minute per IP and 10 per 15 minutes per ' +
          'address and IP (HTTP 429, code 1002); after 5 tries on an address within 15 minutes each try waits ' +
          '0.25 s, doubling, at most 4 s. With two-factor on, a right password answers {secondFactor: {challenge, ' +
          'methods, expiresIn}} instead of a session: finish at /api/login/2fa (or with a passkey).',
        body: loginBody,
        response: apiResponse(loginAnswer),
      },
    },
    async (request) => {
      const client = clientInfo(request);
      return ok(await service.login(request.body, client), client.locale);
    },
  );

  app.get(
    '/getCurrentUser',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: 'The signed-in user', security: signedIn, response: apiResponse(currentUser) },
    },
    async (request) => ok(await service.currentUser(request.user.id), requestLocale(request)),
  );

  app.post(
    '/resetPassword',
    {
      config: { rateLimit: perIp(20, MINUTE) },
      schema: {
        tags,
        summary: 'Set a new password with a reset code; signs out every session',
        description:
          '2004 for a wrong, expired or used-up code and for an unregistered address alike; 2005 after 10 wrong ' +
          'codes for the address within 24 hours; 1001 naming password for a common or trivially guessable password.',
        body: resetPasswordBody,
        response: apiResponse(emptyData),
      },
    },
    async (request) => {
      const locale = requestLocale(request);
      await service.resetPassword(request.body, locale, clientInfo(request));
      return ok(null, locale);
    },
  );

  app.post(
    '/security/reauth',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Confirm the password (or, with two-factor on, a code) for this session: it lasts REAUTH_SECONDS (300 s)',
        description:
          'Adding a passkey and turning two-factor on need it (2013 without). Body: password, or code (authenticator or ' +
          'recovery code, only with two-factor on: 3007 otherwise). 2002 wrong password: counted with /api/login per ' +
          'address and IP (10 per 15 minutes, then 1002, HTTP 429) and slowed down per address alike, and listed in the ' +
          'sign-in history. 2007 wrong code (second-factor tries). Answers until when it lasts.',
        security: signedIn,
        body: reauthBody,
        response: apiResponse(reauthData),
      },
    },
    async (request) => {
      const client = clientInfo(request);
      return ok(await reauthenticate(app.deps, request.user, request.body, client), client.locale);
    },
  );

  app.get(
    '/security/reauth',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "Until when this session's re-authentication lasts (validUntil null: none, or it ran out)",
        security: signedIn,
        response: apiResponse(reauthData),
      },
    },
    async (request) => ok(await reauthStatus(app.deps, request.user.sessionId), requestLocale(request)),
  );

  app.post(
    '/updateUserInfo',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Change nickname and/or avatar',
        description: 'avatar is "preset:N" or a data:image/(png|jpeg|webp);base64 URL. Answers the updated user.',
        security: signedIn,
        body: updateUserInfoBody,
        response: apiResponse(currentUser),
      },
    },
    async (request) => ok(await service.updateUserInfo(request.user.id, request.body), requestLocale(request)),
  );

  app.post(
    '/logout',
    {
      preHandler: app.authenticate,
      schema: { tags, summary: 'End the current session', security: signedIn, response: apiResponse(emptyData) },
    },
    async (request) => {
      await service.logout(request.user.sessionId);
      return ok(null, requestLocale(request));
    },
  );
}
