import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailCodes } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { waitFor } from '../../test/wait.ts';
import { type Client, client } from '../../test/users.ts';
import { checkEmailCode } from './email-codes.ts';
import { decodeMail, logIn, mailsTo, sendMailUrl, signUp } from './test-helpers.ts';

/**
 * Before: every new code came with a fresh budget of 5 tries, and a new code could be had
 * every minute, so an attacker got about 7,200 guesses per address and day (10 wrong guesses,
 * then the right one, reset a password). Now wrong guesses are also counted per address and
 * purpose across codes, in the database: 10 per 24 h, then codes for that purpose are refused
 * (2005) and the owner is told once by mail.
 */
describe('wrong e-mail code guesses per address and purpose', () => {
  let t: TestApp;
  let api: Client;
  beforeAll(async () => {
    // RATE_LIMIT=off: only the code rules are at work here.
    t = await createTestApp({ RATE_LIMIT: 'off' });
    api = client(t);
  });
  afterAll(() => t.close());

  const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  /** As if the minute between two mails had passed. */
  const ageCode = (email: string, purpose: string) =>
    t.database.db
      .update(emailCodes)
      .set({ createdAt: sql`${emailCodes.createdAt} - interval '61 seconds'` })
      .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)));
  const mailResetCode = async (email: string) => {
    await ageCode(email, 'reset');
    const before = mailsTo(t, email).length;
    const res = await api('GET', sendMailUrl(email, 'reset'));
    expect(res.code).toBe(0);
    await expect.poll(() => mailsTo(t, email).length).toBe(before + 1);
    return t.mailbox.lastCode(email);
  };
  const reset = (email: string, code: string, lang?: string) =>
    api('POST', '/api/resetPassword', { body: { email, code, password: 'taken-Over-42' }, lang });
  const alertsTo = (email: string) =>
    mailsTo(t, email)
      .map((m) => decodeMail(m.raw))
      .filter((m) => !/\n\d{6}\n/.test(m.text));

  it('10 wrong reset codes across 3 codes, then the right one: refused with 2005, password unchanged', async () => {
    const email = 'target@coffer.test';
    await signUp(t, email, 'target-Password-1', { lang: 'en-US' });

    const first = await mailResetCode(email);
    for (let i = 0; i < 5; i++) expect((await reset(email, wrongCodeFor(first))).code).toBe(2004);
    const second = await mailResetCode(email);
    for (let i = 0; i < 4; i++) expect((await reset(email, wrongCodeFor(second))).code).toBe(2004);
    const third = await mailResetCode(email);
    expect((await reset(email, wrongCodeFor(third))).code).toBe(2004);

    // The 11th try is the right code of a live, untouched-enough code: still refused.
    expect(await reset(email, third)).toEqual({
      status: 200,
      code: 2005,
      message: '验证码错误次数过多，请稍后再试（最长 24 小时）',
      data: null,
    });
    expect(await reset(email, third, 'en-US')).toMatchObject({
      code: 2005,
      message: 'Too many wrong e-mail codes for this address, please try again later (at most 24 hours)',
    });
    expect(await logIn(t, email, 'target-Password-1')).toBeTruthy();

    // No new reset code either while the cap holds.
    await ageCode(email, 'reset');
    const othersBefore = mailsTo(t, email).length - alertsTo(email).length;
    expect(await api('GET', sendMailUrl(email, 'reset'))).toMatchObject({ code: 2005 });

    // The owner is told once, in the language of the account. (The alert is mailed after the
    // answer, so the count of mails is taken once it has arrived.)
    await expect.poll(() => alertsTo(email).length).toBe(1);
    const mailsAfterAlert = mailsTo(t, email).length;
    const [alert] = alertsTo(email);
    expect(alert!.subject).toBe('Coffer: too many wrong codes for your account');
    expect(alert!.text).toContain('10 wrong password reset codes');
    expect(alert!.text).toContain('24 hours');
    for (let i = 0; i < 3; i++) expect((await reset(email, wrongCodeFor(third))).code).toBe(2005);

    // Other purposes keep their own count: the owner can still get a withdraw code. Once it has
    // arrived, a second alert for the guesses before it would have too.
    const token = await logIn(t, email, 'target-Password-1');
    expect((await api('GET', sendMailUrl(email, 'withdraw'), { token })).code).toBe(0);
    await waitFor(() => mailsTo(t, email).length > mailsAfterAlert, `the withdraw code mailed to ${email}`);
    expect(alertsTo(email)).toHaveLength(1);
    expect(mailsTo(t, email)).toHaveLength(mailsAfterAlert + 1);
    // And no reset code went out while the cap holds: every mail since is the one alert and the withdraw code.
    expect(mailsTo(t, email).length - alertsTo(email).length).toBe(othersBefore + 1);
  });

  it('opens again when the 24 hours are over', async () => {
    const email = 'target@coffer.test';
    await t.database.sql.query(`update rate_limits set reset_at = now() - interval '1 second' where key like 'email-code-guess:reset:%'`);
    const code = await mailResetCode(email);
    expect((await reset(email, code)).code).toBe(0);
    expect(await logIn(t, email, 'taken-Over-42')).toBeTruthy();
  });

  it('counts unregistered addresses alike, so 2005 does not tell an account exists, and mails nobody', async () => {
    const email = 'ghost@coffer.test';
    expect((await api('GET', sendMailUrl(email, 'reset'))).code).toBe(0);
    for (let i = 0; i < 10; i++) expect((await reset(email, '000000')).code).toBe(2004);
    expect((await reset(email, '000000')).code).toBe(2005);
    // A register code asked for afterwards arrives: an alert or a reset code would have come before it.
    expect((await api('GET', sendMailUrl(email, 'register'))).code).toBe(0);
    const [only] = await waitFor(() => mailsTo(t, email).length > 0 && mailsTo(t, email), `the register code mailed to ${email}`);
    expect(mailsTo(t, email)).toHaveLength(1);
    expect(only!.raw).toMatch(/\b\d{6}\b/);
  });

  it('caps register codes, and tells the address in the language its code was mailed in', async () => {
    const email = 'newcomer@coffer.test';
    expect((await api('GET', sendMailUrl(email, 'register'), { lang: 'zh-CN' })).code).toBe(0);
    const code = await t.mailbox.lastCode(email);
    const register = (c: string) => api('POST', '/api/register', { body: { email, password: 'newcomer-Pass-1', code: c } });
    for (let i = 0; i < 5; i++) expect((await register(wrongCodeFor(code))).code).toBe(2004);
    await ageCode(email, 'register');
    expect((await api('GET', sendMailUrl(email, 'register'), { lang: 'zh-CN' })).code).toBe(0);
    await expect.poll(() => mailsTo(t, email).length).toBe(2);
    const next = await t.mailbox.lastCode(email);
    for (let i = 0; i < 5; i++) expect((await register(wrongCodeFor(next))).code).toBe(2004);
    expect((await register(next)).code).toBe(2005);
    await expect.poll(() => alertsTo(email).length).toBe(1);
    expect(alertsTo(email)[0]!.subject).toBe('Coffer：验证码错误次数过多');
  });

  it('caps withdraw codes too (checked by the withdrawal flow through checkEmailCode) and alerts', async () => {
    const email = 'payer@coffer.test';
    const token = await signUp(t, email, 'payer-Password-1');
    expect((await api('GET', sendMailUrl(email, 'withdraw'), { token })).code).toBe(0);
    const code = await t.mailbox.lastCode(email);
    const outcomes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const c = i === 11 ? code : wrongCodeFor(code);
      outcomes.push(
        await checkEmailCode(t.database.db, email, 'withdraw', c).then(
          () => 0,
          (e: { bizCode: number }) => e.bizCode,
        ),
      );
      // A fresh code each 5 tries, as an attacker with the session would ask for.
      if (i === 4) {
        await ageCode(email, 'withdraw');
        expect((await api('GET', sendMailUrl(email, 'withdraw'), { token })).code).toBe(0);
      }
    }
    expect(outcomes).toEqual([2004, 2004, 2004, 2004, 2004, 2004, 2004, 2004, 2004, 2004, 2005, 2005]);
    await expect.poll(() => alertsTo(email).length).toBe(1);
    expect(alertsTo(email)[0]!.text).toContain('提现验证码');
  });
});
