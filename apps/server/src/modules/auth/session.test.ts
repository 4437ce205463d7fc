import type { CurrentUser, LoginData } from '@coffer/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../../core/session.ts';
import { emailCodes, sessions, users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type Client, client } from '../../test/users.ts';
import { decodeMail, logIn, mailsTo, sendMailUrl, signUp } from './test-helpers.ts';

const argon2Calls = vi.hoisted(() => ({ verify: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...actual,
    verify: (...args: Parameters<typeof actual.verify>) => {
      argon2Calls.verify++;
      return actual.verify(...args);
    },
  };
});

describe('sessions, profile and password reset', () => {
  let t: TestApp;
  let api: Client;
  let alice: string;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    api = client(t);
    alice = await signUp(t, 'alice@coffer.test', 'alice-password', { lang: 'en-US' });
  });
  afterAll(() => t.close());

  const login = (body: Record<string, unknown>, lang?: string) => api<LoginData>('POST', '/api/login', { body, lang });
  const me = (token?: string, lang?: string) => api<CurrentUser>('GET', '/api/getCurrentUser', { token, lang });
  const update = (body: unknown, token?: string) => api<CurrentUser>('POST', '/api/updateUserInfo', { body, token });
  const sessionOf = async (token: string) => {
    const [row] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token.replace(/^Bearer /, ''))));
    return row!;
  };

  describe('POST /api/login', () => {
    it('answers {token, tokenHead} and a new session each time', async () => {
      const res = await login({ email: 'alice@coffer.test', password: 'alice-password' }, 'en-US');
      expect(res).toEqual({
        status: 200,
        code: 0,
        message: 'Success',
        data: { token: expect.any(String), tokenHead: 'Bearer ' },
      });
      const token = res.data.tokenHead + res.data.token;
      expect(token).not.toBe(alice);
      expect((await me(token)).data.email).toBe('alice@coffer.test');
      const session = await sessionOf(token);
      expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBeCloseTo(t.config.SESSION_TTL_HOURS * 3600_000, -4);
    });

    it('takes the address in any case and with spaces around it', async () => {
      expect((await login({ email: '  ALICE@Coffer.Test ', password: 'alice-password' })).code).toBe(0);
    });

    it('answers 2002 alike for a wrong password and an unknown address, in both languages', async () => {
      const wrong = await login({ email: 'alice@coffer.test', password: 'not-her-password' });
      const unknown = await login({ email: 'nobody@coffer.test', password: 'alice-password' });
      expect(wrong).toEqual({ status: 200, code: 2002, message: '邮箱或密码错误', data: null });
      expect(unknown).toEqual(wrong);
      const en = await login({ email: 'nobody@coffer.test', password: 'x' }, 'en-US,en;q=0.8');
      expect(en.message).toBe('Wrong e-mail or password');
    });

    it('runs the same argon2 check for an unknown address as for a wrong password', async () => {
      // Counting verifications instead of timing them: a busy CI machine makes timings noisy,
      // and the property that matters is that an unknown address does the same work.
      const verifications = async (email: string) => {
        const before = argon2Calls.verify;
        expect(await login({ email, password: 'not-the-password' })).toMatchObject({ code: 2002 });
        return argon2Calls.verify - before;
      };
      expect(await verifications('alice@coffer.test')).toBe(1);
      expect(await verifications('nobody@coffer.test')).toBe(1);
    });

    it('names the bad fields (1001) and refuses malformed or oversized bodies', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ email: 'alice@coffer.test' }, 'password'],
        [{ email: 'alice@coffer.test', password: '' }, 'password'],
        [{ email: 'alice@coffer.test', password: 'p'.repeat(129) }, 'password'],
        [{ email: 'alice', password: 'alice-password' }, 'email'],
        [{ password: 'alice-password' }, 'email'],
      ];
      for (const [body, field] of cases) {
        expect(await login(body), field).toMatchObject({ status: 200, code: 1001, message: `参数错误：${field}` });
      }
      expect(await login({ password: 'alice-password' }, 'en-US')).toMatchObject({ message: 'Invalid parameters: email' });
      expect(await api('POST', '/api/login', { raw: 'email=alice' })).toMatchObject({ status: 200, code: 1001 });
      const huge = await login({ email: 'alice@coffer.test', password: 'x'.repeat(513 * 1024) });
      expect(huge).toMatchObject({ status: 413, code: 1001, data: null });
    });

    it('is not rate limited when RATE_LIMIT=off', async () => {
      for (let i = 0; i < 12; i++) {
        const res = await api('GET', sendMailUrl(`nolimit${i}@coffer.test`, 'reset'));
        expect(res.status).toBe(200);
        expect(res.code).toBe(0);
      }
    });
  });

  describe('GET /api/getCurrentUser', () => {
    it('answers the user', async () => {
      const res = await me(alice);
      expect(res.code).toBe(0);
      expect(res.data).toEqual({
        uid: expect.any(Number),
        email: 'alice@coffer.test',
        nickname: 'alice',
        avatar: null,
        language: 'en-US',
        role: 'user',
        twoFactor: false,
        stepUpSwaps: false,
        createdAt: expect.any(String),
      });
      expect(new Date(res.data.createdAt).toISOString()).toBe(res.data.createdAt);
    });

    it('accepts the token without its head too', async () => {
      expect((await me(alice.replace(/^Bearer /, ''))).code).toBe(0);
    });

    it('answers 2001 without a token, with an unknown token and with an expired one, in both languages', async () => {
      expect(await me()).toEqual({ status: 200, code: 2001, message: '未登录或登录已失效', data: null });
      expect(await me(undefined, 'en-US')).toMatchObject({ code: 2001, message: 'Not signed in or session expired' });
      expect((await me('Bearer not-a-real-token')).code).toBe(2001);
      expect((await me('Bearer ')).code).toBe(2001);

      const token = await logIn(t, 'alice@coffer.test', 'alice-password');
      expect((await me(token)).code).toBe(0);
      await t.database.db
        .update(sessions)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(sessions.id, (await sessionOf(token)).id));
      expect((await me(token)).code).toBe(2001);
      expect((await me(alice)).code).toBe(0);
    });
  });

  describe('POST /api/updateUserInfo', () => {
    it('changes the nickname and the avatar and answers the updated user', async () => {
      const token = await signUp(t, 'carol@coffer.test', 'carol-password');
      const renamed = await update({ nickname: '  Carol C. ' }, token);
      expect(renamed).toMatchObject({ code: 0, data: { nickname: 'Carol C.', avatar: null, email: 'carol@coffer.test' } });
      const preset = await update({ avatar: 'preset:3' }, token);
      expect(preset.data).toMatchObject({ nickname: 'Carol C.', avatar: 'preset:3' });
      const dataUrl = `data:image/png;base64,${Buffer.from('tiny png').toString('base64')}`;
      const both = await update({ nickname: 'Carol', avatar: dataUrl }, token);
      expect(both.data).toMatchObject({ nickname: 'Carol', avatar: dataUrl });
      expect((await me(token)).data).toEqual(both.data);
    });

    it('names the bad fields (1001)', async () => {
      const cases: [unknown, string][] = [
        [{ nickname: '' }, 'nickname'],
        [{ nickname: 'n'.repeat(33) }, 'nickname'],
        [{ avatar: 'https://evil.example/x.png' }, 'avatar'],
        [{ avatar: 'data:image/svg+xml;base64,PHN2Zz4=' }, 'avatar'],
        // Under the body limit but over the avatar limit.
        [{ avatar: `data:image/png;base64,${'A'.repeat(250_000)}` }, 'avatar'],
        // Control, bidirectional and invisible characters (a NUL answered 500 before).
        [{ nickname: 'ali\u0000ce' }, 'nickname'],
        [{ nickname: '\u0000' }, 'nickname'],
        [{ nickname: 'evil\u202egnp.exe' }, 'nickname'],
        [{ nickname: 'ad\u200bmin' }, 'nickname'],
        [{ nickname: 'two\nlines' }, 'nickname'],
        [{ nickname: 'c1\u0085' }, 'nickname'],
        [{ nickname: 'ok', avatar: 'preset:1\u0000' }, 'avatar'],
      ];
      for (const [body, field] of cases) {
        expect(await update(body, alice), field).toMatchObject({ code: 1001, message: `参数错误：${field}` });
      }
      expect(await update({}, alice)).toMatchObject({ code: 1001 });
      expect((await me(alice)).data.nickname).toBe('alice');
    });

    it('answers 2001 when not signed in and 413 over 512 KiB', async () => {
      expect((await update({ nickname: 'x' })).code).toBe(2001);
      const huge = await update({ avatar: `data:image/png;base64,${'A'.repeat(600 * 1024)}` }, alice);
      expect(huge).toMatchObject({ status: 413, code: 1001 });
    });
  });

  describe('POST /api/logout', () => {
    it('revokes only the current session; the token then answers 2001', async () => {
      const first = await logIn(t, 'alice@coffer.test', 'alice-password');
      const second = await logIn(t, 'alice@coffer.test', 'alice-password');
      const res = await api('POST', '/api/logout', { token: first, lang: 'en-US' });
      expect(res).toEqual({ status: 200, code: 0, message: 'Success', data: null });
      expect((await sessionOf(first)).revokedAt).toBeInstanceOf(Date);
      expect((await me(first)).code).toBe(2001);
      expect((await api('POST', '/api/logout', { token: first })).code).toBe(2001);
      expect((await me(second)).code).toBe(0);
    });

    it('answers 2001 without a session', async () => {
      expect((await api('POST', '/api/logout')).code).toBe(2001);
    });
  });

  describe('POST /api/resetPassword', () => {
    const reset = (body: Record<string, unknown>, lang?: string) => api('POST', '/api/resetPassword', { body, lang });
    const mailResetCode = async (email: string, lang?: string) => {
      const before = mailsTo(t, email).length;
      expect((await api('GET', sendMailUrl(email, 'reset'), { lang })).code).toBe(0);
      // The reset mail leaves after the answer.
      await expect.poll(() => mailsTo(t, email).length).toBe(before + 1);
      return t.mailbox.lastCode(email);
    };
    const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const ageResetCode = (email: string) =>
      t.database.db
        .update(emailCodes)
        .set({ createdAt: sql`now() - interval '11 minutes'`, expiresAt: sql`now() - interval '1 minute'` })
        .where(eq(emailCodes.email, email));

    it('sets the new password and signs out every session of the user', async () => {
      const bobRegistered = await signUp(t, 'bob@coffer.test', 'old-password');
      const bobLoggedIn = await logIn(t, 'bob@coffer.test', 'old-password');
      const code = await mailResetCode('bob@coffer.test', 'en-US');
      const mail = decodeMail(mailsTo(t, 'bob@coffer.test').at(-1)!.raw);
      expect(mail.subject).toBe('Your Coffer password reset code');

      const res = await reset({ email: 'bob@coffer.test', code, password: 'new-password' }, 'en-US');
      expect(res).toEqual({ status: 200, code: 0, message: 'Success', data: null });
      expect((await me(bobRegistered)).code).toBe(2001);
      expect((await me(bobLoggedIn)).code).toBe(2001);
      const [bob] = await t.database.db.select().from(users).where(eq(users.email, 'bob@coffer.test'));
      const open = await t.database.db.select().from(sessions).where(eq(sessions.userId, bob!.id));
      expect(open.every((s) => s.revokedAt !== null)).toBe(true);

      expect((await login({ email: 'bob@coffer.test', password: 'old-password' })).code).toBe(2002);
      expect((await login({ email: 'bob@coffer.test', password: 'new-password' })).code).toBe(0);
      // Other users keep their sessions.
      expect((await me(alice)).code).toBe(0);
      // A code works once.
      expect((await reset({ email: 'bob@coffer.test', code, password: 'third-password' })).code).toBe(2004);
    });

    it('answers an unknown address exactly like a wrong code (2004)', async () => {
      await signUp(t, 'dave@coffer.test', 'dave-password');
      const code = await mailResetCode('dave@coffer.test');
      const wrongCode = await reset({ email: 'dave@coffer.test', code: wrongCodeFor(code), password: 'new-password' });
      const unknownAddress = await reset({ email: 'ghost@coffer.test', code, password: 'new-password' });
      expect(wrongCode).toEqual({ status: 200, code: 2004, message: '验证码错误或已过期', data: null });
      expect(unknownAddress).toEqual(wrongCode);
      // Even after asking for a code for it (stored, never mailed).
      expect((await api('GET', sendMailUrl('ghost@coffer.test', 'reset'))).code).toBe(0);
      expect(await reset({ email: 'ghost@coffer.test', code, password: 'new-password' })).toEqual(wrongCode);
      expect(await reset({ email: 'ghost@coffer.test', code, password: 'new-password' }, 'en-US')).toMatchObject({
        code: 2004,
        message: 'Wrong or expired e-mail code',
      });
      expect((await login({ email: 'dave@coffer.test', password: 'dave-password' })).code).toBe(0);
    });

    it('refuses an expired code and a code after 5 wrong tries', async () => {
      await signUp(t, 'erin@coffer.test', 'erin-password');
      const expired = await mailResetCode('erin@coffer.test');
      await ageResetCode('erin@coffer.test');
      expect((await reset({ email: 'erin@coffer.test', code: expired, password: 'new-password' })).code).toBe(2004);

      const code = await mailResetCode('erin@coffer.test');
      for (let i = 0; i < 5; i++) {
        expect((await reset({ email: 'erin@coffer.test', code: wrongCodeFor(code), password: 'new-password' })).code).toBe(2004);
      }
      expect((await reset({ email: 'erin@coffer.test', code, password: 'new-password' })).code).toBe(2004);
      expect((await login({ email: 'erin@coffer.test', password: 'erin-password' })).code).toBe(0);
    });

    it('does not take a register code for a reset', async () => {
      await api('GET', sendMailUrl('frank@coffer.test', 'register'));
      const registerCode = await t.mailbox.lastCode('frank@coffer.test');
      await t.database.db.insert(users).values({ email: 'frank@coffer.test', passwordHash: 'x', nickname: 'frank' });
      expect((await reset({ email: 'frank@coffer.test', code: registerCode, password: 'new-password' })).code).toBe(2004);
    });

    it('names the bad fields (1001)', async () => {
      const base = { email: 'alice@coffer.test', code: '123456', password: 'new-password' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, password: 'short' }, 'password'],
        [{ ...base, code: 'abcdef' }, 'code'],
        [{ ...base, email: '' }, 'email'],
      ];
      for (const [body, field] of cases) {
        expect(await reset(body), field).toMatchObject({ code: 1001, message: `参数错误：${field}` });
      }
    });
  });
});
