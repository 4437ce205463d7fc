import {
  apiResponse,
  emptyData,
  loginData,
  loginSecondFactorBody,
  stepUpSwapsBody,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorEnableData,
  twoFactorResetCancelBody,
  twoFactorResetData,
  twoFactorSetupData,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../core/locale.ts';
import { reauthenticate } from '../auth/index.ts';
import { ok } from '../../core/reply.ts';
import { loadTwoFactorKey, registerTwoFactorKey } from './secret-box.ts';
import { cancelReset, completeDueResets, pendingReset, RESET_SWEEP_INTERVAL_MS } from './resets.ts';
import { TwoFactorService } from './service.ts';
import { requireSecondFactor } from './totp.ts';

const tags = ['two-factor'];
const signedIn = [{ token: [] }];
const MINUTE = 60_000;

export async function twoFactorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, database } = app.deps;
  registerTwoFactorKey(database, loadTwoFactorKey(config));
  const service = new TwoFactorService(app.deps);
  scheduleResetCompletion(app);
  const perIp = (max: number, timeWindow: number) => (config.RATE_LIMIT ? { max, timeWindow } : false);
  const codeTries =
    'Codes are checked against 10 tries per account and 15 minutes (right codes give theirs back; then 1002, HTTP 429). ' +
    '2007 for a wrong code, a code already accepted in its 30 s window (replay) or a used recovery code.';

  app.post(
    '/2fa/setup',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Start authenticator enrolment: a new secret (otpauth URI for the QR, base32 for manual entry)',
        description: 'The secret is answered here only. 3007 while two-factor is on (disable it first, with a code).',
        security: signedIn,
        response: apiResponse(twoFactorSetupData),
      },
    },
    async (request) => ok(await service.setup(request.user.id, request.user.email), requestLocale(request)),
  );

  app.post(
    '/2fa/enable',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Confirm enrolment with a first code; answers ten one-time recovery codes (shown once)',
        description:
          'Needs the password in the body or a recent re-authentication of this session (POST /api/security/reauth, ' +
          `300 s): 2013 without, 2002 wrong password (counted as a sign-in). 3007 without a pending setup or when already on. ${codeTries}`,
        security: signedIn,
        body: twoFactorEnableBody,
        response: apiResponse(twoFactorEnableData),
      },
    },
    async (request) => {
      const { password, code } = request.body;
      if (password !== undefined) {
        await reauthenticate(app.deps, request.user, { password }, { ip: request.ip, userAgent: request.headers['user-agent'] });
      }
      return ok(await service.enable(request.user, code), requestLocale(request));
    },
  );

  app.post(
    '/2fa/disable',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Turn two-factor off with an authenticator or recovery code',
        description: `3007 when it is off. ${codeTries}`,
        security: signedIn,
        body: twoFactorDisableBody,
        response: apiResponse(emptyData),
      },
    },
    async (request) => {
      await service.disable(request.user.id, request.body.code);
      return ok(null, requestLocale(request));
    },
  );

  app.get(
    '/2fa/reset',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "The account's open operator-assisted two-factor reset, if any (pending null: none)",
        description: 'Opened by support for an owner who lost the authenticator; it completes at completesAt unless cancelled.',
        security: signedIn,
        response: apiResponse(twoFactorResetData),
      },
    },
    async (request) => ok({ pending: await pendingReset(app.deps, request.user.id) }, requestLocale(request)),
  );

  app.post(
    '/2fa/reset/cancel',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "Cancel the account's open two-factor reset (the authenticator and recovery codes stay)",
        description:
          'Needs an authenticator or recovery code (2007 wrong): whoever still holds the factor stops a reset they did not ask ' +
          'for; a stolen session alone cannot keep the owner locked out. 4004 when none is open. The owner is mailed; the ' +
          `cancellation is in the operator audit trail. ${codeTries}`,
        security: signedIn,
        body: twoFactorResetCancelBody,
        response: apiResponse(emptyData),
      },
    },
    async (request) => {
      await requireSecondFactor(app.deps.database, request.user.id, request.body.code);
      await cancelReset(app.deps, request.user.id, { actor: request.user, role: 'owner', reason: null });
      return ok(null, requestLocale(request));
    },
  );

  app.post(
    '/2fa/swaps',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Whether swaps ask for the second factor too (transfers and withdrawals always do with two-factor on)',
        description:
          `3007 while two-factor is off. Turning it off needs the second factor (totp, or stepUpToken of a passkey): ` +
          `2006 without, 2007 wrong code, 2008 unknown or used token. ${codeTries}`,
        security: signedIn,
        body: stepUpSwapsBody,
        response: apiResponse(emptyData),
      },
    },
    async (request) => {
      await service.setStepUpSwaps(request.user.id, request.body);
      return ok(null, requestLocale(request));
    },
  );

  app.post(
    '/login/2fa',
    {
      config: { rateLimit: perIp(30, MINUTE) },
      schema: {
        tags,
        summary: 'Second step of a sign-in: the challenge from /api/login and an authenticator or recovery code',
        description: `Answers the session as /api/login does. 2008 for an unknown, used or expired challenge. ${codeTries}`,
        body: loginSecondFactorBody,
        response: apiResponse(loginData),
      },
    },
    async (request) => {
      const client = { ip: request.ip, userAgent: request.headers['user-agent'] };
      return ok(await service.loginSecondFactor(request.body, client), requestLocale(request));
    },
  );
}

/** Completes the due two-factor resets every RESET_SWEEP_INTERVAL_MS while the app runs (also on sign-in and on reading them). */
function scheduleResetCompletion(app: FastifyInstance): void {
  const timer = setInterval(() => {
    completeDueResets(app.deps).catch((err: unknown) =>
      app.log.warn({ error: err instanceof Error ? err.message : String(err) }, 'two-factor reset completion failed'),
    );
  }, RESET_SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
