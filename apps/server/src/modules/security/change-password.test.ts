import type { ChangePasswordData, CurrentUser, LoginAnswer } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode, sendPreviousCode } from '../../test/authenticator.ts';
import { waitFor } from '../../test/wait.ts';
import { client } from '../../test/users.ts';
import { decodeMail, logIn, mailsTo, signUp } from '../auth/test-helpers.ts';
import { CHANGE_PASSWORD_TRIES } from './change-password.ts';

/** POST /api/security/changePassword: current password, second factor when on, a new acceptable password. */
describe('security centre: change password', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let base: string;
  const url = '/api/security/changePassword';
  const change = (token: string | undefined, body: Record<string, unknown>, lang?: string) =>
    call<ChangePasswordData>('POST', url, { token, body, lang });
  const loginCode = async (email: string, password: string) =>
    (await call<LoginAnswer>('POST', '/api/login', { body: { email, password } })).code;
  const me = async (token: string) => (await call<CurrentUser>('GET', '/api/getCurrentUser', { token })).code;
  const mailsWith = (to: string, text: string) => {
    const find = () =>
      mailsTo(t, to)
        .map((m) => decodeMail(m.raw))
        .filter((m) => m.subject.includes(text));
    return waitFor(() => find().length > 0 && find(), `"${text}" mailed to ${to}`);
  };
  /** Opens the event stream of `token`; resolves `ended` with the time it ended. */
  const openStream = async (token: string) => {
    const controller = new AbortController();
    const res = await fetch(`${base}/api/events`, { headers: { 'x-token': token }, signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    let open = true;
    const ended = (async () => {
      try {
        while (!(await reader.read()).done) {}
      } catch {
        // aborted
      }
      open = false;
      return Date.now();
    })();
    return { ended, isOpen: () => open, abort: () => controller.abort() };
  };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    call = client(t);
  });
  afterAll(() => t.close());

  it('refuses without a session, a wrong current password and bad new passwords, changing nothing', async () => {
    const email = 'change-bad@coffer.test';
    const token = await signUp(t, email, 'change-bad-password', { lang: 'en-US' });
    const good = { currentPassword: 'change-bad-password', newPassword: 'a-fresh-Secret-42' };
    expect((await change(undefined, good)).code).toBe(2001);
    const wrong = await change(token, { ...good, currentPassword: 'not-my-password' }, 'en-US');
    expect(wrong).toMatchObject({ code: 2012, message: 'The current password is wrong', data: null });
    expect((await change(token, { ...good, currentPassword: 'not-my-password' }, 'zh-CN')).message).toBe('当前密码错误');
    const weak = await change(token, { ...good, newPassword: 'password123' }, 'en-US');
    expect(weak.code).toBe(1001);
    expect(weak.message).toMatch(/password/);
    const cases: [Record<string, unknown>, number][] = [
      [{ ...good, newPassword: 'short' }, 1001],
      [{ ...good, newPassword: 'x'.repeat(129) }, 1001],
      [{ ...good, newPassword: 'a-fresh-Secret\u0000-42' }, 1001], // NUL
      [{ ...good, newPassword: 'a-fresh-Secret\n-42' }, 1001], // line break
      [{ ...good, newPassword: 'a-fresh-Secret\u0085-42' }, 1001], // C1 control
      [{ ...good, newPassword: 'a-fresh-Secret\u202e-42' }, 1001], // bidi override
      [{ ...good, currentPassword: '' }, 1001],
      [{ newPassword: good.newPassword }, 1001],
      [{ ...good, signOutOthers: 'yes' }, 1001],
      [{ ...good, code: 'not a code' }, 1001],
    ];
    for (const [body, code] of cases)
      expect([JSON.stringify(body), (await change(token, body)).code]).toEqual([JSON.stringify(body), code]);
    // Nothing changed: the old password still signs in, the new one does not.
    expect(await loginCode(email, 'change-bad-password')).toBe(0);
    expect(await loginCode(email, good.newPassword)).toBe(2002);
  });

  it('changes the password, keeps the other sessions unless asked, and mails the owner in their language', async () => {
    const email = 'change-keep@coffer.test';
    const token = await signUp(t, email, 'change-keep-password', { lang: 'zh-CN' });
    const other = await logIn(t, email, 'change-keep-password');
    const stream = await openStream(other);
    const done = await change(token, { currentPassword: 'change-keep-password', newPassword: 'kept-Sessions-Secret-7' });
    expect(done).toMatchObject({ code: 0, data: { signedOut: 0 } });
    expect(await loginCode(email, 'change-keep-password')).toBe(2002);
    expect(await loginCode(email, 'kept-Sessions-Secret-7')).toBe(0);
    expect(await me(token)).toBe(0);
    expect(await me(other)).toBe(0);
    // The change's mail goes after its answer, later than a sign-out would have ended the stream.
    const [mail] = await mailsWith(email, '登录密码已修改');
    expect(stream.isOpen()).toBe(true);
    stream.abort();
    expect(mail!.text).toContain('登录密码刚刚被修改');
  });

  it('signs out the other sessions on request and ends their streams at once; another user is untouched', async () => {
    const email = 'change-out@coffer.test';
    const token = await signUp(t, email, 'change-out-password', { lang: 'en-US' });
    const others = [await logIn(t, email, 'change-out-password'), await logIn(t, email, 'change-out-password')];
    const bystander = await signUp(t, 'change-bystander@coffer.test', 'change-bystander-pw');
    const streams = await Promise.all(others.map(openStream));
    const bystanderStream = await openStream(bystander);
    const started = Date.now();
    const done = await change(token, { currentPassword: 'change-out-password', newPassword: 'signed-Out-Secret-9', signOutOthers: true });
    expect(done).toMatchObject({ code: 0, data: { signedOut: 2 } });
    for (const ended of await Promise.all(streams.map((s) => s.ended))) expect(ended - started).toBeLessThan(2000);
    for (const o of others) expect(await me(o)).toBe(2001);
    expect(await me(token)).toBe(0);
    expect(await me(bystander)).toBe(0);
    expect(bystanderStream.isOpen()).toBe(true);
    bystanderStream.abort();
    expect(await mailsWith(email, 'your password was changed')).toHaveLength(1);
  });

  it('with two-factor on, needs the second factor (2006 without, 2007 wrong), and a recovery code works', async () => {
    const email = 'change-2fa@coffer.test';
    const token = await signUp(t, email, 'change-2fa-password');
    const setup = await call<{ secret: string }>('POST', '/api/2fa/setup', { token, body: {} });
    const codeOf = (offset: number) => authenticatorCode(setup.data.secret, offset);
    const { answer: enabled } = await sendPreviousCode(setup.data.secret, (code) =>
      call<{ recoveryCodes: string[] }>('POST', '/api/2fa/enable', { token, body: { code, password: 'change-2fa-password' } }),
    );
    expect(enabled.code).toBe(0);
    const body = { currentPassword: 'change-2fa-password', newPassword: 'two-Factor-Secret-11' };
    expect((await change(token, body)).code).toBe(2006);
    const right = codeOf(0);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect((await change(token, { ...body, code: wrong })).code).toBe(2007);
    // A wrong current password is refused before the code is looked at: the code stays unused.
    expect((await change(token, { ...body, currentPassword: 'nope-nope-nope', code: right })).code).toBe(2012);
    expect((await change(token, { ...body, code: right })).code).toBe(0);
    expect(await loginCode(email, body.newPassword)).toBe(0);
    const again = { currentPassword: body.newPassword, newPassword: 'recovered-Secret-12' };
    expect((await change(token, { ...again, code: enabled.data.recoveryCodes[0] })).code).toBe(0);
  });

  it('caps wrong current passwords per account, so a stolen session cannot guess the password', async () => {
    const email = 'change-cap@coffer.test';
    const token = await signUp(t, email, 'change-cap-password');
    const body = { currentPassword: 'change-cap-password', newPassword: 'capped-Secret-13' };
    for (let i = 0; i < CHANGE_PASSWORD_TRIES.max; i++) {
      expect((await change(token, { ...body, currentPassword: `wrong-guess-${i}` })).code).toBe(2012);
    }
    expect(await change(token, body)).toMatchObject({ status: 429, code: 1002 });
    expect(await loginCode(email, body.currentPassword)).toBe(0);
  });
});
