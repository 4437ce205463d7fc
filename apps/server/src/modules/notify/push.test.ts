import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../core/log.ts';
import { createMailer } from '../../mail/mailer.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { Notifier } from './notifier.ts';
import { endpointAllowed, loadVapidKeys, VAPID_FILE_NAME } from './push.ts';
import { waitFor } from '../../test/wait.ts';
import { browserKeys, decryptPush, startPushService, verifyVapid } from './test-support.ts';
import { drainTransferNotices } from './transfer-notices.ts';

/**
 * Web Push against a local push service (an HTTP server in the test): the push carries VAPID
 * auth signed by the server's key and an aes128gcm body that opens with the browser's keys.
 */
describe('web push', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let service: Awaited<ReturnType<typeof startPushService>>;
  let status = 201;
  let alice: TestUser;
  let bob: TestUser;
  let usdt: number;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off', PUSH_LOCAL_ENDPOINTS: 'on' });
    call = client(t);
    service = await startPushService(() => status);
    alice = await createUser(t);
    bob = await createUser(t);
    await fund(t, alice.uid, 'USDT', '100');
    const [c] = await t.database.sql.query<{ id: number }>("select id from currencies where code = 'USDT'");
    usdt = Number(c!.id);
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  const send = async (amount: string) => {
    const r = await call('POST', '/api/transfer/transferByUID', { token: alice.token, body: { uid: bob.uid, currencyId: usdt, amount } });
    expect(r.code).toBe(0);
    await drainTransferNotices(t.database);
  };

  it('the VAPID key pair is generated once into DATA_DIR (0600) and served', async () => {
    const file = path.join(t.config.dataDir, VAPID_FILE_NAME);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const key = await call<{ publicKey: string }>('GET', '/api/push/key', { token: bob.token });
    expect(key.data.publicKey).toBe(loadVapidKeys(t.config).publicKey);
    expect(Buffer.from(key.data.publicKey, 'base64url')).toHaveLength(65);
    expect((await call('GET', '/api/push/key')).code).toBe(2001);
  });

  it('subscribe refuses bad input (1001), signed-out callers (2001) and endpoints it will not post to (3042)', async () => {
    const keys = browserKeys().json;
    expect((await call('POST', '/api/push/subscribe', { body: { endpoint: `${service.origin}/x`, keys } })).code).toBe(2001);
    expect((await call('POST', '/api/push/subscribe', { token: bob.token, body: { endpoint: 'nope', keys } })).code).toBe(1001);
    expect(
      (
        await call('POST', '/api/push/subscribe', {
          token: bob.token,
          body: { endpoint: `${service.origin}/x`, keys: { p256dh: 'a b', auth: 'c' } },
        })
      ).code,
    ).toBe(1001);
    expect((await call('POST', '/api/push/subscribe', { token: bob.token, body: { endpoint: 'ftp://push.example/x', keys } })).code).toBe(
      3042,
    );
  });

  it('a received transfer reaches the subscribed browser encrypted, with VAPID auth; another user gets nothing', async () => {
    const browser = browserKeys();
    const endpoint = `${service.origin}/push/bob-1`;
    expect((await call('POST', '/api/push/subscribe', { token: bob.token, body: { endpoint, keys: browser.json } })).code).toBe(0);
    await t.database.sql.query("update users set language = 'en-US' where id = $1", [bob.uid]);
    await send('7.25');
    const push = await waitFor(() => service.received.find((p) => p.path === '/push/bob-1'), 'the push');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    const vapid = verifyVapid(push.headers.authorization);
    expect(vapid.k).toBe(loadVapidKeys(t.config).publicKey);
    expect(vapid.claims.aud).toBe(service.origin);
    expect(vapid.claims.sub).toMatch(/^mailto:/);
    const payload = JSON.parse(decryptPush(push.body, browser));
    expect(payload.title).toBe('Transfer received: 7.25 USDT');
    expect(payload.body).toContain(`UID ${alice.uid}`);
    expect(payload.url).toMatch(/^\/noticeCenter\/detail\?id=\d+$/);
    // alice has no subscription: only bob's endpoint was posted to
    expect(service.received.every((p) => p.path === '/push/bob-1')).toBe(true);
  });

  it("unsubscribe removes only the caller's own subscription; a push service's 410 removes it too", async () => {
    const endpoint = `${service.origin}/push/bob-2`;
    await call('POST', '/api/push/subscribe', { token: bob.token, body: { endpoint, keys: browserKeys().json } });
    expect((await call('POST', '/api/push/unsubscribe', { token: alice.token, body: { endpoint } })).code).toBe(0);
    const rows = () => t.database.sql.query<{ endpoint: string }>('select endpoint from push_subscriptions where user_id = $1', [bob.uid]);
    expect((await rows()).map((r) => r.endpoint)).toContain(endpoint);
    expect((await call('POST', '/api/push/unsubscribe', { token: bob.token, body: { endpoint } })).code).toBe(0);
    expect((await rows()).map((r) => r.endpoint)).not.toContain(endpoint);
    status = 410;
    await send('1');
    await waitFor(async () => (await rows()).length === 0, 'the ended subscription removed');
    status = 201;
  });

  it('endpoints: https to a named public host only, unless local endpoints are allowed', () => {
    expect(endpointAllowed('https://fcm.googleapis.com/fcm/send/abc', false)).toBe(true);
    expect(endpointAllowed('http://fcm.googleapis.com/fcm/send/abc', false)).toBe(false);
    expect(endpointAllowed('https://127.0.0.1/x', false)).toBe(false);
    expect(endpointAllowed('https://[::1]/x', false)).toBe(false);
    expect(endpointAllowed('https://localhost/x', false)).toBe(false);
    expect(endpointAllowed('https://db.internal/x', false)).toBe(false);
    expect(endpointAllowed('http://127.0.0.1:9/x', true)).toBe(true);
    expect(endpointAllowed('ftp://127.0.0.1/x', true)).toBe(false);
  });

  it('a mail that cannot be sent is logged without the address and does not fail the notice', async () => {
    const warnings: { obj: object; msg: string }[] = [];
    const dead = createMailer({ smtpUrl: 'smtp://127.0.0.1:9', from: 'Coffer <a@b.c>', dataDir: t.config.dataDir, log: silentLog });
    const notifier = new Notifier({
      database: t.database,
      mailer: dead,
      log: { warn: (obj, msg) => warnings.push({ obj, msg }) },
      push: { keys: loadVapidKeys(t.config), subject: 'mailto:a@b.c' },
    });
    const words = { title: 'Test', body: 'Test **1 USDT**' };
    await notifier.publish([
      {
        userId: bob.uid,
        kind: 'new_sign_in',
        category: 'security',
        dedupeKey: 'test:dead-smtp',
        words: { 'zh-CN': words, 'en-US': words },
      },
    ]);
    dead.close();
    const [row] = await t.database.sql.query('select 1 from notices where dedupe_key = $1', ['test:dead-smtp']);
    expect(row).toBeTruthy();
    expect(warnings.map((w) => w.msg)).toContain('event notice mail failed');
    expect(JSON.stringify(warnings)).not.toContain(bob.email);
  });
});
