import {
  type CurrentUser,
  type LoginData,
  type PasskeyItem,
  type PasskeyOptionsData,
  REAUTH_SECONDS,
  type ReauthData,
  RESET_REMOVES_PASSKEYS_DAYS,
  type SignInPage,
} from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client } from '../../test/users.ts';
import { LOGIN_PER_ADDRESS_AND_IP } from '../auth/login-limits.ts';
import { decodeMail, logIn, mailsTo, sendMailUrl, signUp } from '../auth/test-helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

/** A stolen session cannot add a way in: adding a passkey needs a recent password, and a reset by e-mail removes recent passkeys. */
describe('passkeys need a recent re-authentication; a reset removes recent ones', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  const origin = 'http://localhost:8080';
  const password = 'correct horse battery staple 42';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
  });
  afterAll(() => t.close());

  const newEmail = () => `ra-${Math.random().toString(36).slice(2, 8)}@example.com`;

  async function register(token: string, key: SoftAuthenticator) {
    const options = await call<PasskeyOptionsData>('POST', '/api/passkeys/register/options', { token, body: {} });
    if (options.code !== 0) return options;
    return call<PasskeyItem>('POST', '/api/passkeys/register', {
      token,
      body: { challenge: options.data.challenge, response: key.create(options.data.options) },
    });
  }

  async function passwordless(key: SoftAuthenticator) {
    const options = await call<PasskeyOptionsData>('POST', '/api/login/passkey/options', { body: {} });
    return call<LoginData>('POST', '/api/login/passkey', {
      body: { challenge: options.data.challenge, response: key.get(options.data.options) },
    });
  }

  const mailsWith = async (email: string, subject: string) =>
    mailsTo(t, email)
      .map((m) => decodeMail(m.raw))
      .filter((m) => m.subject.includes(subject));

  async function resetByMail(email: string, extra: Record<string, unknown> = {}) {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    const before = mailsTo(t, email).length;
    expect((await call('GET', sendMailUrl(email, 'reset'), { lang: 'en-US' })).code).toBe(0);
    // The reset mail leaves after the answer (notices may arrive meanwhile).
    const isResetMail = (raw: string) => decodeMail(raw).subject === 'Your Coffer password reset code';
    await expect
      .poll(() =>
        mailsTo(t, email)
          .slice(before)
          .some((m) => isResetMail(m.raw)),
      )
      .toBe(true);
    const code = await t.mailbox.lastCode(email);
    return call('POST', '/api/resetPassword', { body: { email, code, password: `${password} new`, ...extra } });
  }

  it('a session without a recent password cannot add a passkey (2013)', async () => {
    const token = await signUp(t, newEmail(), password);
    const res = await register(token, new SoftAuthenticator(origin, 'localhost'));
    expect(res.code).toBe(2013);
    expect((await call<PasskeyItem[]>('GET', '/api/passkeys', { token })).data).toEqual([]);
  });

  it("a thief's passkey does not survive the owner's reset by e-mail", async () => {
    const email = newEmail();
    const thief = await signUp(t, email, password);
    // The thief proves the password only in the test's setup: the point is what the reset leaves.
    expect((await call('POST', '/api/security/reauth', { token: thief, body: { password } })).code).toBe(0);
    const key = new SoftAuthenticator(origin, 'localhost');
    expect((await register(thief, key)).code).toBe(0);
    expect((await resetByMail(email)).code).toBe(0);
    expect((await passwordless(key)).code).toBe(2009);
  });

  it('POST /api/security/reauth: bad input 1001, wrong password 2002 (in the sign-in history), a code without two-factor 3007', async () => {
    const token = await signUp(t, newEmail(), password);
    expect((await call('POST', '/api/security/reauth', { token, body: {} })).code).toBe(1001);
    expect((await call('POST', '/api/security/reauth', { token, body: { password, code: '123456' } })).code).toBe(1001);
    expect((await call('POST', '/api/security/reauth', { token, body: { code: 'not a code' } })).code).toBe(1001);
    expect((await call('POST', '/api/security/reauth', { body: { password } })).code).toBe(2001);
    expect((await call('POST', '/api/security/reauth', { token, body: { password: 'wrong password 1' } })).code).toBe(2002);
    expect((await call('POST', '/api/security/reauth', { token, body: { code: '123456' } })).code).toBe(3007);
    expect((await call<ReauthData>('GET', '/api/security/reauth', { token })).data.validUntil).toBeNull();
    const history = await call<SignInPage>('POST', '/api/security/signins', { token, body: {} });
    expect(history.data.list.filter((a) => !a.success)).toHaveLength(1);
  });

  it('lasts 5 minutes by the database clock, for this session only', async () => {
    const email = newEmail();
    const token = await signUp(t, email, password);
    const other = await logIn(t, email, password);
    const done = await call<ReauthData>('POST', '/api/security/reauth', { token, body: { password } });
    expect(done.code).toBe(0);
    const left = new Date(done.data.validUntil!).getTime() - Date.now();
    expect(left).toBeGreaterThan((REAUTH_SECONDS - 30) * 1000);
    expect(left).toBeLessThanOrEqual(REAUTH_SECONDS * 1000 + 1000);
    // Another session of the same user has not proved anything.
    expect((await call<ReauthData>('GET', '/api/security/reauth', { token: other })).data.validUntil).toBeNull();
    expect((await register(other, new SoftAuthenticator(origin, 'localhost'))).code).toBe(2013);
    // Five minutes later (moved through the database), it is gone.
    const uid = (await call<CurrentUser>('GET', '/api/getCurrentUser', { token })).data.uid;
    await t.database.sql.query(
      `update sessions set reauthenticated_at = reauthenticated_at - make_interval(secs => ${REAUTH_SECONDS + 1}) where user_id = $1`,
      [uid],
    );
    expect((await call<ReauthData>('GET', '/api/security/reauth', { token })).data.validUntil).toBeNull();
    expect((await register(token, new SoftAuthenticator(origin, 'localhost'))).code).toBe(2013);
  });

  it('a wrong password counts against the sign-in limit per address and IP (1002 after 10)', async () => {
    const limited = await createTestApp();
    try {
      const api = client(limited);
      const email = newEmail();
      const token = await signUp(limited, email, password);
      for (let i = 0; i < LOGIN_PER_ADDRESS_AND_IP.max; i++) {
        expect((await api('POST', '/api/security/reauth', { token, body: { password: `wrong ${i}` } })).code).toBe(2002);
      }
      // Even the right password, and the sign-in page too: one count.
      expect(await api('POST', '/api/security/reauth', { token, body: { password } })).toMatchObject({ status: 429, code: 1002 });
      expect(await api('POST', '/api/login', { body: { email, password } })).toMatchObject({ status: 429, code: 1002 });
    } finally {
      await limited.close();
    }
  }, 60_000);

  it('a reset keeps the passkeys when the owner unticks the option, and older ones always', async () => {
    const email = newEmail();
    const token = await signUp(t, email, password, { lang: 'en-US' });
    expect((await call('POST', '/api/security/reauth', { token, body: { password } })).code).toBe(0);
    const oldKey = new SoftAuthenticator(origin, 'localhost');
    const recentKey = new SoftAuthenticator(origin, 'localhost');
    const old = await register(token, oldKey);
    expect(old.code).toBe(0);
    expect((await register(token, recentKey)).code).toBe(0);
    await t.database.sql.query(
      `update passkeys set created_at = now() - make_interval(days => ${RESET_REMOVES_PASSKEYS_DAYS + 1}) where id = $1`,
      [(old.data as PasskeyItem).id],
    );
    expect((await resetByMail(email, { removeRecentPasskeys: 'yes' })).code).toBe(1001);
    expect((await resetByMail(email, { removeRecentPasskeys: false })).code).toBe(0);
    expect((await passwordless(recentKey)).code).toBe(0);
    expect((await resetByMail(email)).code).toBe(0);
    expect((await passwordless(recentKey)).code).toBe(2009);
    expect((await passwordless(oldKey)).code).toBe(0);
    await expect.poll(async () => (await mailsWith(email, 'a passkey was removed')).length).toBe(1);
  });
});
