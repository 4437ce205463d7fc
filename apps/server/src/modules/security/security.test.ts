import type { AntiPhishingData, Envelope, LoginData, RevokeOthersData, SecuritySessionList, SignInPage } from '@coffer/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, LAST_SEEN_EVERY_MS } from '../../core/session.ts';
import { sessions } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode as codeOf, sendPreviousCode } from '../../test/authenticator.ts';
import { waitFor } from '../../test/wait.ts';
import { decodeMail, mailsTo, pause, sendMailUrl, signUp } from '../auth/test-helpers.ts';
import { deviceName } from './user-agent.ts';

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';

interface Opts {
  token?: string;
  body?: unknown;
  lang?: string;
  ua?: string;
  ip?: string;
}

describe('security centre', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;

  async function call<T>(method: 'GET' | 'POST', url: string, opts: Opts = {}): Promise<Envelope<T>> {
    const headers: Record<string, string> = { 'user-agent': opts.ua ?? CHROME_MAC };
    if (opts.token) headers['x-token'] = opts.token;
    if (opts.lang) headers['accept-language'] = opts.lang;
    const res = await t.app.inject({
      method,
      url,
      headers,
      ...(opts.body !== undefined && { payload: opts.body as object }),
      remoteAddress: opts.ip ?? '127.0.0.1',
    });
    return res.json() as Envelope<T>;
  }
  const login = async (email: string, password: string, ua = CHROME_MAC, ip = '127.0.0.1') => {
    const res = await call<LoginData>('POST', '/api/login', { body: { email, password }, ua, ip });
    if (res.code !== 0) throw new Error(`login ${res.code}`);
    return res.data.tokenHead + res.data.token;
  };
  const list = (token: string) => call<SecuritySessionList>('GET', '/api/security/sessions', { token });
  /** Mails to `to` whose decoded subject contains `text`, waiting briefly for delivery. */
  const mailsWith = async (to: string, text: string, atLeast = 1) => {
    const found = () =>
      mailsTo(t, to)
        .map((m) => decodeMail(m.raw))
        .filter((m) => m.subject.includes(text));
    return atLeast === 0 ? found() : waitFor(() => found().length >= atLeast && found(), `${atLeast} "${text}" mails to ${to}`);
  };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    alice = await signUp(t, 'alice@coffer.test', 'alice-password', { lang: 'en-US' });
    bob = await signUp(t, 'bob@coffer.test', 'bob-password', { lang: 'zh-CN' });
  });
  afterAll(() => t.close());

  it('names devices from user agents', () => {
    expect(deviceName(CHROME_MAC)).toBe('Chrome on macOS');
    expect(deviceName(SAFARI_IOS)).toBe('Safari on iOS');
    expect(deviceName(FIREFOX_LINUX)).toBe('Firefox on Linux');
    expect(
      deviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36'),
    ).toBe('Chrome on Android');
    expect(
      deviceName(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
      ),
    ).toBe('Edge on Windows');
    expect(deviceName('curl/8.5.0')).toBe('curl');
    expect(deviceName(null)).toBeNull();
  });

  it('lists active sessions with device, IP, times and the current one marked', async () => {
    const phone = await login('alice@coffer.test', 'alice-password', SAFARI_IOS, '203.0.113.7');
    const res = await list(phone);
    expect(res.code).toBe(0);
    const mine = res.data.list.find((s) => s.current)!;
    expect(mine).toMatchObject({ device: 'Safari on iOS', ip: '203.0.113.7', current: true });
    expect(mine.lastSeenAt).not.toBeNull();
    expect(Number.isNaN(Date.parse(mine.createdAt))).toBe(false);
    expect(res.data.list.filter((s) => s.current)).toHaveLength(1);
    expect(res.data.list.length).toBeGreaterThanOrEqual(2); // the sign-up session too
    // Only alice's sessions.
    const bobs = await list(bob);
    expect(bobs.data.list.map((s) => s.id)).not.toContain(mine.id);
  });

  it('writes last_seen_at at most once a minute per session', async () => {
    const token = await login('alice@coffer.test', 'alice-password');
    const where = eq(sessions.tokenHash, hashToken(token.replace(/^Bearer /, '')));
    expect((await list(token)).code).toBe(0);
    const [first] = await t.database.db.select().from(sessions).where(where);
    expect(first!.lastSeenAt).not.toBeNull();
    await list(token);
    const [second] = await t.database.db.select().from(sessions).where(where);
    expect(second!.lastSeenAt!.getTime()).toBe(first!.lastSeenAt!.getTime());
    // A minute later it moves.
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - LAST_SEEN_EVERY_MS - 1000) })
      .where(where);
    await list(token);
    const [third] = await t.database.db.select().from(sessions).where(where);
    expect(third!.lastSeenAt!.getTime()).toBeGreaterThan(first!.lastSeenAt!.getTime());
  });

  it('revokes one session: its token answers 2001 at once; another user’s id or a bad id does not work', async () => {
    const other = await login('alice@coffer.test', 'alice-password', FIREFOX_LINUX);
    const me = await login('alice@coffer.test', 'alice-password');
    const otherId = (await list(other)).data.list.find((s) => s.current)!.id;
    const bobId = (await list(bob)).data.list.find((s) => s.current)!.id;

    expect((await call('POST', `/api/security/sessions/${bobId}/revoke`, { token: me })).code).toBe(4004);
    expect((await list(bob)).code).toBe(0);
    expect((await call('POST', '/api/security/sessions/abc/revoke', { token: me })).code).toBe(1001);
    expect((await call('POST', '/api/security/sessions/0/revoke', { token: me })).code).toBe(1001);
    expect((await call('POST', `/api/security/sessions/${otherId}/revoke`)).code).toBe(2001);

    expect((await call('POST', `/api/security/sessions/${otherId}/revoke`, { token: me })).code).toBe(0);
    expect((await list(other)).code).toBe(2001);
    expect((await call('GET', '/api/getCurrentUser', { token: other })).code).toBe(2001);
    expect((await list(me)).data.list.map((s) => s.id)).not.toContain(otherId);
    // Already revoked: 4004.
    expect((await call('POST', `/api/security/sessions/${otherId}/revoke`, { token: me })).code).toBe(4004);
  });

  it('revokes every other session of the user, not this one nor another user’s', async () => {
    const a1 = await login('alice@coffer.test', 'alice-password', FIREFOX_LINUX);
    const a2 = await login('alice@coffer.test', 'alice-password', SAFARI_IOS);
    const res = await call<RevokeOthersData>('POST', '/api/security/sessions/revokeOthers', { token: a2 });
    expect(res.code).toBe(0);
    expect(res.data.revoked).toBeGreaterThanOrEqual(2);
    expect((await list(a1)).code).toBe(2001);
    expect((await list(alice)).code).toBe(2001);
    const left = await list(a2);
    expect(left.data.list).toHaveLength(1);
    expect(left.data.list[0]!.current).toBe(true);
    expect((await list(bob)).code).toBe(0);
    alice = a2;
  });

  it('records every sign-in attempt and pages them, newest first, only the user’s', async () => {
    const wrong = await call('POST', '/api/login', {
      body: { email: 'alice@coffer.test', password: 'not-the-password' },
      ua: FIREFOX_LINUX,
      ip: '198.51.100.9',
    });
    expect(wrong.code).toBe(2002);
    const page = await call<SignInPage>('POST', '/api/security/signins', { token: alice, body: { page: 1, pageSize: 2 } });
    expect(page.code).toBe(0);
    expect(page.data.page).toBe(1);
    expect(page.data.pageSize).toBe(2);
    expect(page.data.list).toHaveLength(2);
    expect(page.data.list[0]).toMatchObject({ success: false, ip: '198.51.100.9', device: 'Firefox on Linux' });
    expect(page.data.list[1]!.success).toBe(true);
    expect(page.data.total).toBeGreaterThanOrEqual(6);
    const all = await call<SignInPage>('POST', '/api/security/signins', { token: alice, body: { page: 1, pageSize: 100 } });
    expect(all.data.list).toHaveLength(all.data.total);
    const bobs = await call<SignInPage>('POST', '/api/security/signins', { token: bob, body: {} });
    expect(bobs.data.total).toBe(1); // the sign-up
    expect(bobs.data.list.map((r) => r.id)).not.toContain(page.data.list[0]!.id);
    // Unknown addresses record nothing (no account to attach them to).
    expect((await call('POST', '/api/login', { body: { email: 'nobody@coffer.test', password: 'whatever-x' } })).code).toBe(2002);

    expect((await call('POST', '/api/security/signins', { token: alice, body: { page: 0, pageSize: 10 } })).code).toBe(1001);
    expect((await call('POST', '/api/security/signins', { token: alice, body: { page: 1, pageSize: 101 } })).code).toBe(1001);
    expect((await call('POST', '/api/security/signins', { token: alice, body: { page: '1' } })).code).toBe(1001);
    expect((await call('POST', '/api/security/signins', { body: {} })).code).toBe(2001);
  });

  it('mails a new-sign-in notice, in the user’s language, only for a new device or IP', async () => {
    const before = (await mailsWith('bob@coffer.test', '登录提醒', 0)).length;
    await login('bob@coffer.test', 'bob-password', 'lightMyRequest'); // the device and IP of the sign-up (inject's agent)
    // A new device next: once its notice has arrived, one for the known device would have too.
    await login('bob@coffer.test', 'bob-password', SAFARI_IOS, '192.0.2.44');
    const notices = await mailsWith('bob@coffer.test', '登录提醒', before + 1);
    expect(notices).toHaveLength(before + 1);
    expect(notices.at(-1)!.text).toContain('Safari on iOS');
    expect(notices.at(-1)!.text).toContain('192.0.2.44');
    // The same device and IP again: no new mail.
    await login('bob@coffer.test', 'bob-password', SAFARI_IOS, '192.0.2.44');
    // ... and the next new IP's notice is the only one after it.
    await login('bob@coffer.test', 'bob-password', SAFARI_IOS, '192.0.2.45');
    const later = await mailsWith('bob@coffer.test', '登录提醒', before + 2);
    expect(later).toHaveLength(before + 2);
    expect(later.at(-1)!.text).toContain('192.0.2.45');
  });

  it('mails a notice after a password reset and through app.notifySecurityEvent', async () => {
    await signUp(t, 'carol@coffer.test', 'carol-password', { lang: 'en-US' });
    expect((await call('GET', sendMailUrl('carol@coffer.test', 'reset'), { lang: 'en-US' })).code).toBe(0);
    expect(await mailsWith('carol@coffer.test', 'password reset code')).toHaveLength(1);
    const code = await t.mailbox.lastCode('carol@coffer.test');
    const reset = await call('POST', '/api/resetPassword', {
      body: { email: 'carol@coffer.test', code, password: 'carol-new-password-9' },
      lang: 'en-US',
    });
    expect(reset.code).toBe(0);
    expect(await mailsWith('carol@coffer.test', 'your password was reset')).toHaveLength(1);

    const me = await call<{ uid: number }>('GET', '/api/getCurrentUser', { token: alice });
    await t.app.notifySecurityEvent(me.data.uid, 'two_factor_enabled');
    expect((await mailsWith('alice@coffer.test', 'two-step verification turned on')).at(-1)!.text).toContain(
      'Two-step verification was just turned on',
    );
    // An unknown user: nothing sent, nothing thrown.
    await expect(t.app.notifySecurityEvent(999_999, 'passkey_added')).resolves.toBeUndefined();
  });

  it('sets, masks and clears the anti-phishing phrase; it opens the next code mail', async () => {
    expect((await call<AntiPhishingData>('GET', '/api/security/antiPhishing', { token: alice })).data).toEqual({
      set: false,
      masked: null,
    });
    const set = await call<AntiPhishingData>('POST', '/api/security/antiPhishing', {
      token: alice,
      body: { phrase: '  Blue Heron 42 ' },
    });
    expect(set.code).toBe(0);
    expect(set.data).toEqual({ set: true, masked: `B${'•'.repeat(11)}2` });
    expect(JSON.stringify(await call('GET', '/api/security/antiPhishing', { token: alice }))).not.toContain('Heron');

    for (const phrase of ['x'.repeat(33), 'bad\u0000phrase', 'right\u202eleft', 42]) {
      expect((await call('POST', '/api/security/antiPhishing', { token: alice, body: { phrase } })).code).toBe(1001);
    }
    expect((await call('POST', '/api/security/antiPhishing', { body: { phrase: 'x' } })).code).toBe(2001);

    // The next code mail (a withdraw code, asked in Chinese) starts with the phrase.
    const sent = await call('GET', sendMailUrl('alice@coffer.test', 'withdraw'), { token: alice, lang: 'zh-CN' });
    expect(sent.code).toBe(0);
    const mail = decodeMail(mailsTo(t, 'alice@coffer.test').at(-1)!.raw);
    expect(mail.subject).toBe('Coffer 提现验证码');
    expect(mail.text.split('\n')[0]).toBe('您的防钓鱼码：Blue Heron 42');
    expect(mailsTo(t, 'alice@coffer.test').at(-1)!.raw).toMatch(/\d{6}/);
    // Another user's mails do not carry it.
    const bobBefore = (await mailsWith('bob@coffer.test', '登录提醒', 0)).length;
    await login('bob@coffer.test', 'bob-password', FIREFOX_LINUX, '192.0.2.99');
    const bobMail = (await mailsWith('bob@coffer.test', '登录提醒', bobBefore + 1)).at(-1)!;
    expect(bobMail.text).not.toContain('Blue Heron');

    // Alerts carry it too, in the mail's language.
    const noticesBefore = (await mailsWith('alice@coffer.test', 'new sign-in', 0)).length;
    await login('alice@coffer.test', 'alice-password', FIREFOX_LINUX, '192.0.2.100');
    const notice = (await mailsWith('alice@coffer.test', 'new sign-in', noticesBefore + 1)).at(-1)!;
    expect(notice.text.split('\n')[0]).toBe('Your anti-phishing phrase: Blue Heron 42');

    const cleared = await call<AntiPhishingData>('POST', '/api/security/antiPhishing', { token: alice, body: { phrase: '' } });
    expect(cleared.data).toEqual({ set: false, masked: null });
  });
  it('with two-factor on: records the second step (wrong code a failure, right code a success) and mails the 2FA changes', async () => {
    const token = await signUp(t, 'dave@coffer.test', 'dave-password', { lang: 'en-US' });
    const setup = await call<{ secret: string }>('POST', '/api/2fa/setup', { token, body: {} });
    expect(setup.code).toBe(0);
    const enabled = await sendPreviousCode(setup.data.secret, (code) =>
      call('POST', '/api/2fa/enable', { token, body: { code, password: 'dave-password' } }),
    );
    expect(enabled.answer.code).toBe(0);
    expect(await mailsWith('dave@coffer.test', 'two-step verification turned on')).toHaveLength(1);

    const first = await call<{ secondFactor: { challenge: string } }>('POST', '/api/login', {
      body: { email: 'dave@coffer.test', password: 'dave-password' },
      ua: SAFARI_IOS,
      ip: '192.0.2.77',
    });
    expect(first.code).toBe(0);
    const { challenge } = first.data.secondFactor;
    const right = codeOf(setup.data.secret, 1);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const refused = await call('POST', '/api/login/2fa', { body: { challenge, code: wrong }, ua: SAFARI_IOS, ip: '192.0.2.77' });
    expect(refused.code).not.toBe(0);
    const done = await call<LoginData>('POST', '/api/login/2fa', { body: { challenge, code: right }, ua: SAFARI_IOS, ip: '192.0.2.77' });
    expect(done.code).toBe(0);
    const history = await call<SignInPage>('POST', '/api/security/signins', { token, body: {} });
    expect(history.data.list.slice(0, 2).map((a) => [a.success, a.device, a.ip])).toEqual([
      [true, 'Safari on iOS', '192.0.2.77'],
      [false, 'Safari on iOS', '192.0.2.77'],
    ]);
    expect(await mailsWith('dave@coffer.test', 'new sign-in')).toHaveLength(1);
  });
});

describe('security centre: the event stream of a signed-out session', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('ends at once when the session is signed out from another one', async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const token = await signUp(t, 'erin@coffer.test', 'erin-password');
    const other = await signUp(t, 'erin2@coffer.test', 'erin-password'); // another user's stream stays
    const loginRes = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'erin@coffer.test', password: 'erin-password' },
    });
    const phone = `Bearer ${(loginRes.json() as Envelope<LoginData>).data.token}`;

    const open = async (tok: string) => {
      const controller = new AbortController();
      const res = await fetch(`${base}/api/events`, { headers: { 'x-token': tok }, signal: controller.signal });
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = res.body!.getReader();
      await reader.read(); // retry: line
      return { reader, controller };
    };
    const phoneStream = await open(phone);
    const otherStream = await open(other);

    const sessionsRes = await t.app.inject({ method: 'GET', url: '/api/security/sessions', headers: { 'x-token': token } });
    const phoneId = (sessionsRes.json() as Envelope<SecuritySessionList>).data.list.find((s) => !s.current)!.id;
    const revoked = await t.app.inject({
      method: 'POST',
      url: `/api/security/sessions/${phoneId}/revoke`,
      headers: { 'x-token': token },
    });
    expect((revoked.json() as Envelope<null>).code).toBe(0);

    const ended = await Promise.race([phoneStream.reader.read().then((r) => r.done), pause(3000).then(() => 'timeout')]);
    expect(ended).toBe(true);
    const stillOpen = await Promise.race([otherStream.reader.read().then(() => 'data'), pause(300).then(() => 'open')]);
    expect(stillOpen).toBe('open');
    otherStream.controller.abort();
    phoneStream.controller.abort();
  });
});
