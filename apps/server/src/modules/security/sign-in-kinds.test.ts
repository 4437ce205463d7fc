import type { LoginAnswer, LoginData, PasskeyItem, PasskeyOptionsData, SignInPage } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode as codeOf, sendPreviousCode } from '../../test/authenticator.ts';
import { waitFor } from '../../test/wait.ts';
import { client } from '../../test/users.ts';
import { decodeMail, mailsTo, sendMailUrl, signUp } from '../auth/test-helpers.ts';
import { SoftAuthenticator } from '../passkeys/soft-authenticator.ts';

/** The sign-in history tells a wrong password from a wrong second factor, and the owner hears of the latter at once. */
describe('sign-in history: kinds of attempts', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  const origin = 'http://localhost:8080';

  const wrongOf = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, '0');
  const history = async (token: string) => (await call<SignInPage>('POST', '/api/security/signins', { token, body: {} })).data.list;
  const mailsWith = (to: string, text: string) =>
    mailsTo(t, to)
      .map((m) => decodeMail(m.raw))
      .filter((m) => m.subject.includes(text));
  const mailedWith = (to: string, text: string) =>
    waitFor(() => mailsWith(to, text).length > 0 && mailsWith(to, text), `"${text}" mailed to ${to}`);

  /** Signs up with two-factor on; answers the session and the authenticator secret. */
  async function withTwoFactor(email: string, password: string, lang: string) {
    const token = await signUp(t, email, password, { lang });
    const setup = await call<{ secret: string }>('POST', '/api/2fa/setup', { token, body: {} });
    const enabled = await sendPreviousCode(setup.data.secret, (code) =>
      call('POST', '/api/2fa/enable', { token, body: { code, password } }),
    );
    expect(enabled.answer.code).toBe(0);
    return { token, secret: setup.data.secret };
  }
  const challengeFor = async (email: string, password: string) => {
    const res = await call<LoginAnswer>('POST', '/api/login', { body: { email, password } });
    if (!('secondFactor' in res.data)) throw new Error(`no second factor asked (${res.code})`);
    return res.data.secondFactor.challenge;
  };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
  });
  afterAll(() => t.close());

  it('records a wrong password, a wrong second factor and a success as their own kinds', async () => {
    const email = 'kinds-en@coffer.test';
    const { token, secret } = await withTwoFactor(email, 'kinds-en-password', 'en-US');
    expect((await call('POST', '/api/login', { body: { email, password: 'not-the-password' } })).code).toBe(2002);
    const challenge = await challengeFor(email, 'kinds-en-password');
    const right = codeOf(secret, 1);
    expect((await call('POST', '/api/login/2fa', { body: { challenge, code: wrongOf(right) } })).code).toBe(2007);
    expect((await call<LoginData>('POST', '/api/login/2fa', { body: { challenge, code: right } })).code).toBe(0);

    const list = await history(token);
    expect(list.slice(0, 4).map((a) => [a.kind, a.success])).toEqual([
      ['success', true],
      ['second_factor_wrong', false],
      ['password_wrong', false],
      ['success', true], // sign-up
    ]);
  });

  it('mails the owner at once that someone knows the password, in their language, once per window', async () => {
    const en = 'knows-en@coffer.test';
    const zh = 'knows-zh@coffer.test';
    const a = await withTwoFactor(en, 'knows-en-password', 'en-US');
    const b = await withTwoFactor(zh, 'knows-zh-password', 'zh-CN');
    for (const [email, password, secret] of [
      [en, 'knows-en-password', a.secret],
      [zh, 'knows-zh-password', b.secret],
    ] as const) {
      const challenge = await challengeFor(email, password);
      const wrong = wrongOf(codeOf(secret, 1));
      expect((await call('POST', '/api/login/2fa', { body: { challenge, code: wrong } })).code).toBe(2007);
      expect((await call('POST', '/api/login/2fa', { body: { challenge, code: wrong } })).code).toBe(2007);
    }
    const [english] = await mailedWith(en, 'someone knows your password');
    expect(english!.text).toContain('password was entered correctly');
    const [chinese] = await mailedWith(zh, '有人知道您的密码');
    expect(chinese!.text).toContain('密码');
    // Two wrong codes in a row: one mail, not a mail per guess. A code asked for afterwards has
    // arrived, so a second warning would have too.
    const before = mailsTo(t, en).length;
    expect((await call('GET', sendMailUrl(en, 'reset'))).code).toBe(0);
    await waitFor(() => mailsTo(t, en).length > before, `the reset code mailed to ${en}`);
    expect(mailsWith(en, 'someone knows your password')).toHaveLength(1);
  });

  it('records a wrong passkey as second factor the same way', async () => {
    const email = 'kinds-passkey@coffer.test';
    const password = 'kinds-passkey-password';
    const { token, secret } = await withTwoFactor(email, password, 'en-US');
    const key = new SoftAuthenticator(origin, 'localhost');
    const options = await call<PasskeyOptionsData>('POST', '/api/passkeys/register/options', { token, body: { code: codeOf(secret) } });
    expect(options.code).toBe(0);
    const added = await call<PasskeyItem>('POST', '/api/passkeys/register', {
      token,
      body: { challenge: options.data.challenge, response: key.create(options.data.options) },
    });
    expect(added.code).toBe(0);

    const challenge = await challengeFor(email, password);
    const login = await call<PasskeyOptionsData>('POST', '/api/login/passkey/options', { body: { challenge } });
    // Signed for another origin: the signature does not verify.
    const forged = key.get(login.data.options, { origin: 'https://evil.example' });
    expect((await call('POST', '/api/login/passkey', { body: { challenge, response: forged } })).code).toBe(2009);
    expect((await history(token))[0]).toMatchObject({ kind: 'second_factor_wrong', success: false });
  });
});
