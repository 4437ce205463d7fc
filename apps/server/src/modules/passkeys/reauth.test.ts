import type { LoginData, PasskeyItem, PasskeyOptionsData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client } from '../../test/users.ts';
import { decodeMail, mailsTo, sendMailUrl, signUp } from '../auth/test-helpers.ts';
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
});
