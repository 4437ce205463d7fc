import type { CurrentUser, LoginData } from '@coffer/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailCodes, users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type Client, client } from '../../test/users.ts';
import { hashPassword } from './passwords.ts';
import { AuthService } from './service.ts';
import { decodeMail, mailsTo, sendMailUrl, signUp } from './test-helpers.ts';

describe('sendMail and register', () => {
  let t: TestApp;
  let api: Client;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off', OPERATOR_EMAILS: 'Boss@Coffer.test, other@coffer.test' });
    api = client(t);
  });
  afterAll(() => t.close());

  const codeRow = async (email: string, purpose: string) => {
    const [row] = await t.database.db
      .select()
      .from(emailCodes)
      .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)));
    return row!;
  };
  /** Moves the last mail back in time, as if the minute had passed. */
  const ageCode = (email: string, purpose: string, ms: number) =>
    t.database.db
      .update(emailCodes)
      .set({
        createdAt: sql`${emailCodes.createdAt} - make_interval(secs => ${ms / 1000})`,
        expiresAt: sql`${emailCodes.expiresAt} - make_interval(secs => ${ms / 1000})`,
      })
      .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)));
  const register = (body: Record<string, unknown>, lang?: string) => api<LoginData>('POST', '/api/register', { body, lang });
  const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  describe('GET /api/sendMail', () => {
    it('mails a 6-digit register code in zh-CN by default, stored only as a hash, valid 10 minutes', async () => {
      const res = await api('GET', sendMailUrl('new1@coffer.test', 'register'));
      expect(res).toEqual({ status: 200, code: 0, message: '成功', data: null });
      const code = await t.mailbox.lastCode('new1@coffer.test');
      expect(code).toMatch(/^\d{6}$/);
      const mail = decodeMail(mailsTo(t, 'new1@coffer.test').at(-1)!.raw);
      expect(mail.subject).toBe('Coffer 注册验证码');
      expect(mail.text).toContain('您正在注册 Coffer 账户');
      expect(mail.text).toContain(`\n${code}\n`);
      const row = await codeRow('new1@coffer.test', 'register');
      expect(row.codeHash).not.toContain(code);
      expect(row.attempts).toBe(0);
      expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(10 * 60_000);
    });

    it('mails in English when accept-language asks for it', async () => {
      const res = await api('GET', sendMailUrl('new2@coffer.test', 'register'), { lang: 'en-GB,en;q=0.9' });
      expect(res.message).toBe('Success');
      const code = await t.mailbox.lastCode('new2@coffer.test');
      const mail = decodeMail(mailsTo(t, 'new2@coffer.test').at(-1)!.raw);
      expect(mail.subject).toBe('Your Coffer sign-up code');
      expect(mail.text).toContain('valid for 10 minutes');
      expect(mail.text).toContain(code);
    });

    it('trims and lower-cases the address', async () => {
      expect((await api('GET', sendMailUrl('  Mixed.Case@Coffer.TEST ', 'register'))).code).toBe(0);
      expect(await t.mailbox.lastCode('mixed.case@coffer.test')).toMatch(/^\d{6}$/);
    });

    it('allows one mail per address and purpose per minute (1002 with a clear message), then a fresh code', async () => {
      const email = 'often@coffer.test';
      expect((await api('GET', sendMailUrl(email, 'register'))).code).toBe(0);
      const first = await t.mailbox.lastCode(email);

      const zh = await api('GET', sendMailUrl(email, 'register'));
      expect(zh.status).toBe(200);
      expect(zh.code).toBe(1002);
      expect(zh.message).toMatch(/^请求过于频繁，请稍后再试：验证码已发送到该邮箱，请 \d+ 秒后再重新获取$/);
      const en = await api('GET', sendMailUrl(email, 'register'), { lang: 'en-US' });
      expect(en.code).toBe(1002);
      expect(en.message).toMatch(/a code was just sent to this address; you can ask for a new one in \d+ s$/);
      expect(mailsTo(t, email)).toHaveLength(1);

      // Another purpose is another counter.
      expect((await api('GET', sendMailUrl(email, 'reset'))).code).toBe(0);

      await ageCode(email, 'register', 61_000);
      expect((await api('GET', sendMailUrl(email, 'register'))).code).toBe(0);
      await expect.poll(() => mailsTo(t, email).length).toBe(2);
      const second = await t.mailbox.lastCode(email);
      // The new code replaces the old one.
      if (second !== first) expect((await register({ email, password: 'password-1', code: first })).code).toBe(2004);
      expect((await register({ email, password: 'password-1', code: second })).code).toBe(0);
    });

    it('answers 2003 for a register code to a registered address, in both languages', async () => {
      await signUp(t, 'taken@coffer.test', 'password-1');
      const zh = await api('GET', sendMailUrl('taken@coffer.test', 'register'));
      expect(zh).toEqual({ status: 200, code: 2003, message: '该邮箱已注册', data: null });
      const en = await api('GET', sendMailUrl('TAKEN@coffer.test', 'register'), { lang: 'en' });
      expect(en.message).toBe('This e-mail is already registered');
    });

    it('names the field of bad input (1001)', async () => {
      const cases: [string, string][] = [
        ['/api/sendMail?type=register', 'email'],
        ['/api/sendMail?email=not-an-email&type=register', 'email'],
        [`/api/sendMail?email=${'a'.repeat(250)}@x.io&type=register`, 'email'],
        ['/api/sendMail?email=a@coffer.test', 'type'],
        ['/api/sendMail?email=a@coffer.test&type=login', 'type'],
      ];
      for (const [url, field] of cases) {
        const res = await api('GET', url);
        expect(res, url).toMatchObject({ status: 200, code: 1001, message: `参数错误：${field}`, data: null });
      }
      const en = await api('GET', '/api/sendMail?email=x&type=register', { lang: 'en-US' });
      expect(en.message).toBe('Invalid parameters: email');
    });

    it('answers a reset the same whether the address is registered or not, and mails only a registered one', async () => {
      await signUp(t, 'known@coffer.test', 'password-1');
      const known = await api('GET', sendMailUrl('known@coffer.test', 'reset'));
      const unknown = await api('GET', sendMailUrl('unknown@coffer.test', 'reset'));
      expect(unknown).toEqual(known);
      expect(known).toEqual({ status: 200, code: 0, message: '成功', data: null });
      // The reset mail leaves after the answer: wait for it.
      await expect.poll(() => mailsTo(t, 'known@coffer.test').length).toBe(2);
      expect(decodeMail(mailsTo(t, 'known@coffer.test').at(-1)!.raw).subject).toBe('Coffer 重置密码验证码');

      // Asking again at once is refused alike, so the minute rule does not tell them apart either.
      const knownAgain = await api('GET', sendMailUrl('known@coffer.test', 'reset'), { lang: 'en-US' });
      const unknownAgain = await api('GET', sendMailUrl('unknown@coffer.test', 'reset'), { lang: 'en-US' });
      expect(knownAgain.code).toBe(1002);
      expect(unknownAgain.code).toBe(1002);
      expect(unknownAgain.message.replace(/\d+/, 'N')).toBe(knownAgain.message.replace(/\d+/, 'N'));

      // The reset mail is handed to the mailer before the answer: an unknown address never is.
      expect(t.sendAttempts).toContain('known@coffer.test');
      expect(t.sendAttempts).not.toContain('unknown@coffer.test');
      expect(mailsTo(t, 'unknown@coffer.test')).toHaveLength(0);
    });

    it('forgets the code when the mail cannot be sent, so the user may ask again at once', async () => {
      const email = 'smtp-down@coffer.test';
      const failing = new AuthService(
        {
          ...t.app.deps,
          mailer: {
            send: () => Promise.reject(new Error('smtp down')),
            close: () => {},
          },
        },
        t.app.log,
      );
      const client = { locale: 'zh-CN' as const, ip: '127.0.0.1' };
      const noSession = () => Promise.reject(new Error('not needed'));
      await expect(failing.sendMail({ email, type: 'register' }, client, noSession)).rejects.toThrow('smtp down');
      expect(await t.database.db.select().from(emailCodes).where(eq(emailCodes.email, email))).toHaveLength(0);
      expect((await api('GET', sendMailUrl(email, 'register'))).code).toBe(0);
      expect(await t.mailbox.lastCode(email)).toMatch(/^\d{6}$/);
    });

    it('sends a withdraw code only to the signed-in owner of the address', async () => {
      const token = await signUp(t, 'owner@coffer.test', 'password-1');
      const anonymous = await api('GET', sendMailUrl('owner@coffer.test', 'withdraw'));
      expect(anonymous).toMatchObject({ code: 2001, message: '未登录或登录已失效' });
      const other = await api('GET', sendMailUrl('taken@coffer.test', 'withdraw'), { token });
      expect(other).toMatchObject({ code: 1001, message: '参数错误：email' });
      expect(mailsTo(t, 'taken@coffer.test').filter((m) => decodeMail(m.raw).subject.includes('提现'))).toHaveLength(0);
      const mine = await api('GET', sendMailUrl('owner@coffer.test', 'withdraw'), { token, lang: 'en-US' });
      expect(mine.code).toBe(0);
      await t.mailbox.lastCode('owner@coffer.test');
      const mail = decodeMail(mailsTo(t, 'owner@coffer.test').at(-1)!.raw);
      expect(mail.subject).toBe('Your Coffer withdrawal code');
      expect(mail.text).toContain('Never share it');
    });
  });

  describe('POST /api/register', () => {
    it('creates the user and signs it in', async () => {
      await api('GET', sendMailUrl('Fresh.User@Coffer.test', 'register'), { lang: 'en-US' });
      const code = await t.mailbox.lastCode('fresh.user@coffer.test');
      const res = await register({ email: 'fresh.user@coffer.test', password: 'correct horse', code }, 'en-US');
      expect(res).toEqual({
        status: 200,
        code: 0,
        message: 'Success',
        data: { token: expect.stringMatching(/^[\w-]{43}$/), tokenHead: 'Bearer ' },
      });
      const me = await api<CurrentUser>('GET', '/api/getCurrentUser', { token: res.data.tokenHead + res.data.token });
      expect(me.data).toEqual({
        uid: expect.any(Number),
        email: 'fresh.user@coffer.test',
        nickname: 'fresh.user',
        avatar: null,
        language: 'en-US',
        role: 'user',
        twoFactor: false,
        stepUpSwaps: false,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const [row] = await t.database.db.select().from(users).where(eq(users.email, 'fresh.user@coffer.test'));
      expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect((await codeRow('fresh.user@coffer.test', 'register')).consumedAt).toBeInstanceOf(Date);
    });

    it('keeps a given nickname, cuts a long default one to 32 characters, stores zh-CN by default', async () => {
      const named = await signUp(t, 'named@coffer.test', 'password-1', { nickname: '  小明  ' });
      const meNamed = await api<CurrentUser>('GET', '/api/getCurrentUser', { token: named });
      expect(meNamed.data).toMatchObject({ nickname: '小明', language: 'zh-CN' });
      const local = 'a'.repeat(40);
      const long = await signUp(t, `${local}@coffer.test`, 'password-1');
      const meLong = await api<CurrentUser>('GET', '/api/getCurrentUser', { token: long });
      expect(meLong.data.nickname).toBe('a'.repeat(32));
    });

    it('makes the first address of OPERATOR_EMAILS to register the admin, and no second one (decision 045)', async () => {
      const token = await signUp(t, 'boss@coffer.test', 'password-1');
      const me = await api<CurrentUser>('GET', '/api/getCurrentUser', { token });
      expect(me.data.role).toBe('operator');
      const roles = await t.database.sql.query<{ role: string }>(
        'select r.role from operator_roles r join users u on u.id = r.user_id where u.email = $1 order by r.role',
        ['boss@coffer.test'],
      );
      expect(roles.map((r) => r.role)).toEqual(['admin', 'finance', 'support']);
      const [audit] = await t.database.sql.query<{ actor: string; after: { roles: string[] } }>(
        `select actor, after from operator_actions where action = 'operator.bootstrap'`,
      );
      expect(audit).toMatchObject({ actor: 'config', after: { roles: ['support', 'finance', 'admin'] } });
      // An admin exists now: the other listed address registers as a plain user.
      const other = await signUp(t, 'other@coffer.test', 'password-1');
      const otherMe = await api<CurrentUser>('GET', '/api/getCurrentUser', { token: other });
      expect(otherMe.data.role).toBe('user');
      const [count] = await t.database.sql.query<{ n: string }>(`select count(*) as n from operator_roles where role = 'admin'`);
      expect(Number(count!.n)).toBe(1);
    });

    it('answers 2004 for a wrong code, a used code and when no code was ever sent', async () => {
      await api('GET', sendMailUrl('once@coffer.test', 'register'));
      const code = await t.mailbox.lastCode('once@coffer.test');
      const wrong = await register({ email: 'once@coffer.test', password: 'password-1', code: wrongCodeFor(code) });
      expect(wrong).toEqual({ status: 200, code: 2004, message: '验证码错误或已过期', data: null });
      expect((await register({ email: 'once@coffer.test', password: 'password-1', code })).code).toBe(0);
      const reused = await register({ email: 'once@coffer.test', password: 'password-1', code }, 'en-US');
      expect(reused).toMatchObject({ code: 2004, message: 'Wrong or expired e-mail code' });
      const never = await register({ email: 'never-mailed@coffer.test', password: 'password-1', code: '123456' });
      expect(never.code).toBe(2004);
    });

    it('kills a code after 5 wrong tries', async () => {
      const email = 'guesser@coffer.test';
      await api('GET', sendMailUrl(email, 'register'));
      const code = await t.mailbox.lastCode(email);
      for (let i = 0; i < 5; i++) {
        expect((await register({ email, password: 'password-1', code: wrongCodeFor(code) })).code).toBe(2004);
      }
      expect((await register({ email, password: 'password-1', code })).code).toBe(2004);
      expect((await codeRow(email, 'register')).attempts).toBe(5);
    });

    it('still takes the right code after 4 wrong tries', async () => {
      const email = 'clumsy@coffer.test';
      await api('GET', sendMailUrl(email, 'register'));
      const code = await t.mailbox.lastCode(email);
      for (let i = 0; i < 4; i++) {
        expect((await register({ email, password: 'password-1', code: wrongCodeFor(code) })).code).toBe(2004);
      }
      expect((await register({ email, password: 'password-1', code })).code).toBe(0);
    });

    it('answers 2004 for an expired code', async () => {
      const email = 'late@coffer.test';
      await api('GET', sendMailUrl(email, 'register'));
      const code = await t.mailbox.lastCode(email);
      await ageCode(email, 'register', 10 * 60_000 + 1000);
      expect((await register({ email, password: 'password-1', code })).code).toBe(2004);
    });

    it('answers 2003 when the address was taken after the code was sent, and uses nothing up', async () => {
      const email = 'race@coffer.test';
      await api('GET', sendMailUrl(email, 'register'));
      const code = await t.mailbox.lastCode(email);
      // Someone else completes a sign-up in between: only the unique key can notice.
      await t.database.db.insert(users).values({ email, passwordHash: await hashPassword('other-password'), nickname: 'first' });
      const res = await register({ email, password: 'password-1', code }, 'en-US');
      expect(res).toMatchObject({ code: 2003, message: 'This e-mail is already registered' });
      expect((await codeRow(email, 'register')).consumedAt).toBeNull();
      const rows = await t.database.db.select().from(users).where(eq(users.email, email));
      expect(rows.map((r) => r.nickname)).toEqual(['first']);
    });

    it('lets only one of two simultaneous sign-ups with one code succeed', async () => {
      const email = 'twice@coffer.test';
      await api('GET', sendMailUrl(email, 'register'));
      const code = await t.mailbox.lastCode(email);
      const results = await Promise.all([
        register({ email, password: 'password-1', code }),
        register({ email, password: 'password-2', code }),
      ]);
      expect(results.map((r) => r.code).sort()).toEqual([0, expect.toSatisfy((c: number) => c === 2003 || c === 2004)]);
      expect(await t.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
    });

    it('names the bad fields (1001)', async () => {
      await api('GET', sendMailUrl('fields@coffer.test', 'register'));
      const code = await t.mailbox.lastCode('fields@coffer.test');
      const base = { email: 'fields@coffer.test', password: 'password-1', code };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, password: 'short' }, 'password'],
        [{ ...base, password: 'x'.repeat(129) }, 'password'],
        [{ ...base, code: '12345' }, 'code'],
        [{ ...base, code: 123456 }, 'code'],
        [{ ...base, email: 'nope' }, 'email'],
        [{ ...base, nickname: 'n'.repeat(33) }, 'nickname'],
        [{ ...base, nickname: '   ' }, 'nickname'],
        // Control, bidirectional and invisible characters (a NUL answered 500 before).
        [{ ...base, nickname: 'nul\u0000' }, 'nickname'],
        [{ ...base, nickname: 'rlo\u202eoverride' }, 'nickname'],
        [{ ...base, nickname: 'iso\u2067late' }, 'nickname'],
        [{ ...base, nickname: 'zero\ufeffwidth' }, 'nickname'],
        [{ ...base, nickname: 'tab\tbed' }, 'nickname'],
      ];
      for (const [body, field] of cases) {
        expect(await register(body), field).toMatchObject({ code: 1001, message: `参数错误：${field}` });
      }
      const empty = await register({}, 'en-US');
      expect(empty.code).toBe(1001);
      for (const field of ['email', 'password', 'code']) expect(empty.message).toContain(field);
      // None of that counted as a try on the code.
      expect((await codeRow('fields@coffer.test', 'register')).attempts).toBe(0);
    });

    it('answers malformed JSON with 1001 and a body over 512 KiB with 413', async () => {
      const malformed = await api('POST', '/api/register', { raw: '{"email": ' });
      expect(malformed).toMatchObject({ status: 200, code: 1001 });
      const huge = await api('POST', '/api/register', {
        body: { email: 'huge@coffer.test', password: 'password-1', code: '123456', nickname: 'x'.repeat(600 * 1024) },
      });
      expect(huge).toMatchObject({ status: 413, code: 1001 });
    });
  });

  it('documents every auth route in the OpenAPI document, with the auth tag', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const routes: [string, string][] = [
      ['/api/sendMail', 'get'],
      ['/api/register', 'post'],
      ['/api/login', 'post'],
      ['/api/getCurrentUser', 'get'],
      ['/api/resetPassword', 'post'],
      ['/api/updateUserInfo', 'post'],
      ['/api/logout', 'post'],
    ];
    for (const [path, method] of routes) expect(doc.paths[path]?.[method]?.tags, path).toEqual(['auth']);
    const registerOk = doc.paths['/api/register'].post.responses['200'].content['application/json'].schema.anyOf[0];
    expect(registerOk.properties.data.required).toEqual(['token', 'tokenHead']);
    expect(doc.paths['/api/getCurrentUser'].get.security).toEqual([{ token: [] }]);
    expect(doc.paths['/api/sendMail'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['email', 'type']);
  });
});
