import {
  apiResponse,
  ErrorCode,
  notifySettings,
  notifySettingsUpdate,
  pushKeyData,
  pushSubscribedData,
  pushSubscriptionInput,
  pushUnsubscribeInput,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BizError } from '../../core/errors.ts';
import { requestLocale } from '../../core/locale.ts';
import { ok } from '../../core/reply.ts';
import type { Database } from '../../db/client.ts';
import { Notifier, registerNotifier } from './notifier.ts';
import { endpointAllowed, loadVapidKeys, vapidSubject } from './push.ts';
import { registerTransferNotices } from './transfer-notices.ts';

const tags = ['notify'];
const security = [{ token: [] }];
/** Browsers one user may have subscribed; a new one past this replaces the oldest. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

async function settingsOf(database: Database, userId: number) {
  const [row] = await database.sql.query<{ money: boolean; security: boolean }>(
    'select mail_money_events as money, mail_security_events as security from users where id = $1',
    [userId],
  );
  return { moneyMail: row?.money ?? false, securityMail: row?.security ?? true };
}

async function subscribe(database: Database, userId: number, s: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  // One row per endpoint: the same browser subscribing again (perhaps signed in as someone
  // else now) moves it; the endpoint is an unguessable URL only that browser knows.
  await database.sql.query(
    `with upsert as (
       insert into push_subscriptions (user_id, endpoint, p256dh, auth) values ($1, $2, $3, $4)
       on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, created_at = now()
       returning id)
     delete from push_subscriptions where user_id = $1 and id not in (select id from upsert) and id not in (
       select id from push_subscriptions where user_id = $1 order by created_at desc, id desc limit $5)`,
    [userId, s.endpoint, s.keys.p256dh, s.keys.auth, MAX_PUSH_SUBSCRIPTIONS - 1],
  );
}

/** Mail toggles per category and the Web Push subscriptions (docs/decisions/054). */
export async function notifyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, config, mailer } = app.deps;
  const keys = loadVapidKeys(config);
  const log = app.log.child({ module: 'notify' });
  registerNotifier(database, new Notifier({ database, mailer, log, push: { keys, subject: vapidSubject(config.MAIL_FROM) } }));
  registerTransferNotices(database, log);
  const signedIn = { preHandler: app.authenticate };

  app.get(
    '/user/notify-settings',
    {
      ...signedIn,
      schema: { tags, security, summary: 'Your mail toggles: money events, security events', response: apiResponse(notifySettings) },
    },
    async (request) => ok(await settingsOf(database, request.user.id), requestLocale(request)),
  );

  app.post(
    '/user/notify-settings',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'Turn mail about money or security events on or off (a notice is always made)',
        body: notifySettingsUpdate,
        response: apiResponse(notifySettings),
      },
    },
    async (request) => {
      const { moneyMail, securityMail } = request.body;
      await database.sql.query(
        `update users set mail_money_events = coalesce($2, mail_money_events), mail_security_events = coalesce($3, mail_security_events)
         where id = $1`,
        [request.user.id, moneyMail ?? null, securityMail ?? null],
      );
      return ok(await settingsOf(database, request.user.id), requestLocale(request));
    },
  );

  app.get(
    '/push/key',
    {
      ...signedIn,
      schema: { tags, security, summary: "The server's VAPID public key for PushManager.subscribe()", response: apiResponse(pushKeyData) },
    },
    async (request) => ok({ publicKey: keys.publicKey }, requestLocale(request)),
  );

  app.post(
    '/push/subscribe',
    {
      ...signedIn,
      config: { rateLimit: config.RATE_LIMIT ? { max: 20, timeWindow: 60_000 } : false },
      schema: {
        tags,
        security,
        summary: "Push this browser your notices (its PushSubscription); 3042 when the server won't post to the endpoint",
        body: pushSubscriptionInput,
        response: apiResponse(pushSubscribedData),
      },
    },
    async (request) => {
      if (!endpointAllowed(request.body.endpoint, config.PUSH_LOCAL_ENDPOINTS)) throw new BizError(ErrorCode.PUSH_ENDPOINT_REFUSED);
      await subscribe(database, request.user.id, request.body);
      return ok({ subscribed: true }, requestLocale(request));
    },
  );

  app.post(
    '/push/unsubscribe',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'Stop pushing to this browser',
        body: pushUnsubscribeInput,
        response: apiResponse(pushSubscribedData),
      },
    },
    async (request) => {
      await database.sql.query('delete from push_subscriptions where user_id = $1 and endpoint = $2', [
        request.user.id,
        request.body.endpoint,
      ]);
      return ok({ subscribed: false }, requestLocale(request));
    },
  );
}
