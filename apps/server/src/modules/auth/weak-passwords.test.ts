import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type Client, client } from '../../test/users.ts';
import { logIn, mailsTo, sendMailUrl, signUp } from './test-helpers.ts';

/**
 * Before: any 8 characters were a password, `12345678` and `password` included. Now a
 * password found in the common-password list of @zxcvbn-ts/language-common (or one zxcvbn
 * scores 0, like `aaaaaaaa`) is refused with 1001 naming `password`, on register and reset,
 * before the e-mail code is tried (so the code is not used up).
 */
describe('weak passwords', () => {
  let t: TestApp;
  let api: Client;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    api = client(t);
  });
  afterAll(() => t.close());

  const weak = ['12345678', 'password', 'Password', 'qwertyuiop', 'iloveyou', 'password1', 'passw0rd', 'aaaaaaaa', 'abcdefgh'];

  it('register refuses common passwords with 1001 naming password, in both languages, and keeps the code', async () => {
    const email = 'weak@coffer.test';
    expect((await api('GET', sendMailUrl(email, 'register'))).code).toBe(0);
    const code = await t.mailbox.lastCode(email);
    for (const password of weak) {
      const res = await api('POST', '/api/register', { body: { email, password, code } });
      expect(res, password).toEqual({
        status: 200,
        code: 1001,
        message: '参数错误：password（该密码太常见，很容易被猜到，请换一个）',
        data: null,
      });
    }
    const en = await api('POST', '/api/register', { body: { email, password: '12345678', code }, lang: 'en-US' });
    expect(en.message).toBe('Invalid parameters: password (too common, easy to guess; choose another one)');
    // More than 5 refusals, and the code still works: the password was judged before the code.
    const ok = await api('POST', '/api/register', { body: { email, password: 'weak-but-Not-common-7', code } });
    expect(ok.code).toBe(0);
  });

  it('reset refuses common passwords the same way and keeps the code', async () => {
    const email = 'resetter@coffer.test';
    await signUp(t, email, 'resetter-Password-1');
    const before = mailsTo(t, email).length;
    expect((await api('GET', sendMailUrl(email, 'reset'))).code).toBe(0);
    await expect.poll(() => mailsTo(t, email).length).toBe(before + 1);
    const code = await t.mailbox.lastCode(email);
    for (const password of weak) {
      const res = await api('POST', '/api/resetPassword', { body: { email, code, password }, lang: 'en-US' });
      expect(res, password).toMatchObject({
        code: 1001,
        message: 'Invalid parameters: password (too common, easy to guess; choose another one)',
      });
    }
    expect((await api('POST', '/api/resetPassword', { body: { email, code, password: 'fresh-Password-2' } })).code).toBe(0);
    expect(await logIn(t, email, 'fresh-Password-2')).toBeTruthy();
  });

  it('login still accepts an old weak password (the rule applies to new passwords only)', async () => {
    const { hashPassword } = await import('./passwords.ts');
    const { users } = await import('../../db/schema/index.ts');
    await t.database.db
      .insert(users)
      .values({ email: 'legacy@coffer.test', passwordHash: await hashPassword('12345678'), nickname: 'legacy' });
    expect(await logIn(t, 'legacy@coffer.test', '12345678')).toBeTruthy();
  });
});

describe('the shared password rule (@coffer/contract/password-strength)', () => {
  it('scores 0-4, marks common passwords, and refuses exactly what the server refuses', async () => {
    const { passwordStrength } = await import('@coffer/contract/password-strength');
    for (const p of ['12345678', 'password', 'Password1', 'aaaaaaaa']) {
      expect(passwordStrength(p), p).toMatchObject({ score: 0, acceptable: false });
    }
    expect(passwordStrength('password').common).toBe(true);
    for (const p of ['password-1', 'new-password', 'correct horse', 'p4ssword-for-tests', 'first-Password-1']) {
      expect(passwordStrength(p).acceptable, p).toBe(true);
    }
    const strong = passwordStrength('tangerine-Otter-piano-41');
    expect(strong.score).toBeGreaterThanOrEqual(3);
    expect(strong.acceptable).toBe(true);
  });
});
