import type { AdminUserDetail, CurrentUser, LoginAnswer, LoginData, TwoFactorResetData, TwoFactorSetupData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode, sendPreviousCode } from '../../test/authenticator.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { decodeMail, mailsTo, signUp } from '../auth/test-helpers.ts';
import { completeDueResets } from './resets.ts';

/** Turning two-factor on needs the password; an owner who lost the factor has an operator-assisted reset. */
describe('two-factor: enabling needs the password; the operator-assisted reset', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  const password = 'correct horse battery staple 42';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
  });
  afterAll(() => t.close());

  const newEmail = () => `rc-${Math.random().toString(36).slice(2, 8)}@example.com`;

  it("a session alone cannot turn two-factor on with the thief's authenticator (2013)", async () => {
    const token = await signUp(t, newEmail(), password);
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token });
    const code = authenticatorCode(setup.data.secret);
    expect((await call('POST', '/api/2fa/enable', { token, body: { code } })).code).toBe(2013);
  });

  it('enables with the password in the body (2002 wrong, counted as a failed sign-in) or after a re-authentication', async () => {
    const token = await signUp(t, newEmail(), password);
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token });
    const code = authenticatorCode(setup.data.secret);
    expect((await call('POST', '/api/2fa/enable', { token, body: { code, password: 'not the password' } })).code).toBe(2002);
    expect((await call('POST', '/api/2fa/enable', { token, body: { code, password: '' } })).code).toBe(1001);
    expect((await call('POST', '/api/2fa/enable', { token, body: { code, password } })).code).toBe(0);
    const other = await signUp(t, newEmail(), password);
    const otherSetup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token: other });
    expect((await call('POST', '/api/security/reauth', { token: other, body: { password } })).code).toBe(0);
    const otherCode = authenticatorCode(otherSetup.data.secret);
    expect((await call('POST', '/api/2fa/enable', { token: other, body: { code: otherCode } })).code).toBe(0);
  });

  describe('operator-assisted reset', () => {
    let operator: TestUser;
    beforeAll(async () => {
      operator = await createUser(t, { role: 'operator' });
    });

    /** An owner with two-factor on, signing in with a password. */
    async function owner(lang: 'en-US' | 'zh-CN' = 'en-US') {
      const email = newEmail();
      const token = await signUp(t, email, password, { lang });
      const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token });
      const code = authenticatorCode(setup.data.secret);
      const enabled = await call<{ recoveryCodes: string[] }>('POST', '/api/2fa/enable', { token, body: { code, password } });
      expect(enabled.code).toBe(0);
      const uid = (await call<CurrentUser>('GET', '/api/getCurrentUser', { token })).data.uid;
      return { email, token, uid, recoveryCodes: enabled.data.recoveryCodes };
    }
    const subjects = (email: string) => mailsTo(t, email).map((m) => decodeMail(m.raw).subject);
    const open = (uid: number, reason = 'lost phone, identity checked by video call #77', token = operator.token) =>
      call<AdminUserDetail>('POST', `/api/admin/users/${uid}/two-factor-reset`, { token, body: { reason } });
    /** Moves the reset's time forward through the database: as if its waiting period had passed. */
    const waitPassed = (uid: number) =>
      t.database.sql.query(
        `update two_factor_resets set created_at = created_at - interval '73 hours', completes_at = completes_at - interval '73 hours'
          where user_id = $1 and cancelled_at is null and completed_at is null`,
        [uid],
      );
    const audit = (uid: number) =>
      t.database.sql.query<{ action: string; actor: string; reason: string | null }>(
        "select action, actor, reason from operator_actions where target_type = 'user' and target_id = $1 and action like 'user.two_factor_reset%' order by id",
        [String(uid)],
      );

    it('opens with a reason (audited, mailed at once), waits 72 h, then removes the authenticator and mails again', async () => {
      const u = await owner('en-US');
      const opened = await open(u.uid);
      expect(opened.code).toBe(0);
      expect(opened.data.twoFactor).toBe(true);
      const reset = opened.data.twoFactorReset!;
      expect(reset).toMatchObject({ operator: operator.email, reason: 'lost phone, identity checked by video call #77' });
      const waitMs = new Date(reset.completesAt).getTime() - new Date(reset.createdAt).getTime();
      expect(waitMs).toBe(72 * 3600_000);
      await expect.poll(() => subjects(u.email)).toContain('Coffer: support opened a two-step verification reset');
      // The owner sees it in the security centre.
      const pending = await call<TwoFactorResetData>('GET', '/api/2fa/reset', { token: u.token });
      expect(pending.data.pending).toMatchObject({ completesAt: reset.completesAt });
      // One at a time.
      expect((await open(u.uid)).code).toBe(3007);
      // Before its time, sign-in still asks for the code.
      const early = await call<LoginAnswer>('POST', '/api/login', { body: { email: u.email, password } });
      expect(early.data).toHaveProperty('secondFactor');

      await waitPassed(u.uid);
      const after = await call<LoginData>('POST', '/api/login', { body: { email: u.email, password } });
      expect(after.data).toHaveProperty('token');
      // Completing it ended every session (one a thief held was kept out of money by the factor).
      expect((await call('GET', '/api/getCurrentUser', { token: u.token })).code).toBe(2001);
      const fresh = after.data.tokenHead + after.data.token;
      expect((await call<CurrentUser>('GET', '/api/getCurrentUser', { token: fresh })).data.twoFactor).toBe(false);
      const rows = await t.database.sql.query('select 1 from recovery_codes where user_id = $1', [u.uid]);
      expect(rows).toHaveLength(0);
      await expect.poll(() => subjects(u.email)).toContain('Coffer: two-step verification was reset');
      expect((await call<TwoFactorResetData>('GET', '/api/2fa/reset', { token: fresh })).data.pending).toBeNull();
      expect((await audit(u.uid)).map((a) => [a.action, a.actor])).toEqual([
        ['user.two_factor_reset.open', operator.email],
        ['user.two_factor_reset.complete', 'system:two-factor-reset'],
      ]);
    });

    it('the owner cancels it (mailed in their language, audited); then nothing is removed when the time passes', async () => {
      const u = await owner('zh-CN');
      expect((await open(u.uid)).code).toBe(0);
      await expect.poll(() => subjects(u.email)).toContain('Coffer：客服已为您的账户发起两步验证重置');
      // Another user has no reset to cancel and cannot touch this one.
      const stranger = await createUser(t);
      expect((await call('POST', '/api/2fa/reset/cancel', { token: stranger.token, body: { code: '123456' } })).code).toBe(4004);
      // A stolen session alone cannot keep the owner out: the cancel needs the factor.
      expect((await call('POST', '/api/2fa/reset/cancel', { token: u.token, body: {} })).code).toBe(1001);
      expect((await call('POST', '/api/2fa/reset/cancel', { token: u.token, body: { code: 'zzzzz-zzzzz' } })).code).toBe(2007);
      expect((await call('POST', '/api/2fa/reset/cancel', { token: u.token, body: { code: u.recoveryCodes[0] } })).code).toBe(0);
      expect((await call('POST', '/api/2fa/reset/cancel', { token: u.token, body: { code: u.recoveryCodes[1] } })).code).toBe(4004);
      await expect.poll(() => subjects(u.email)).toContain('Coffer：两步验证重置已取消');
      await t.database.sql.query(
        "update two_factor_resets set created_at = created_at - interval '73 hours', completes_at = completes_at - interval '73 hours' where user_id = $1",
        [u.uid],
      );
      expect(await completeDueResets(t.app.deps)).toBe(0);
      expect((await call<CurrentUser>('GET', '/api/getCurrentUser', { token: u.token })).data.twoFactor).toBe(true);
      expect((await audit(u.uid)).map((a) => [a.action, a.actor])).toEqual([
        ['user.two_factor_reset.open', operator.email],
        ['user.two_factor_reset.cancel', u.email],
      ]);
    });

    it('the operator cancels it with a reason; the sweep completes due resets of every user', async () => {
      const u = await owner();
      expect((await open(u.uid)).code).toBe(0);
      const cancelled = await call<AdminUserDetail>('POST', `/api/admin/users/${u.uid}/two-factor-reset/cancel`, {
        token: operator.token,
        body: { reason: 'the owner found the phone' },
      });
      expect(cancelled).toMatchObject({ code: 0, data: { twoFactor: true, twoFactorReset: null } });
      expect(
        (await call('POST', `/api/admin/users/${u.uid}/two-factor-reset/cancel`, { token: operator.token, body: { reason: 'x' } })).code,
      ).toBe(4004);
      expect((await open(u.uid)).code).toBe(0);
      await waitPassed(u.uid);
      expect(await completeDueResets(t.app.deps)).toBe(1);
      expect(await completeDueResets(t.app.deps)).toBe(0);
      const detail = await call<AdminUserDetail>('GET', `/api/admin/users/${u.uid}`, { token: operator.token });
      expect(detail.data).toMatchObject({ twoFactor: false, twoFactorReset: null });
      expect((await audit(u.uid)).map((a) => [a.action, a.reason])).toEqual([
        ['user.two_factor_reset.open', 'lost phone, identity checked by video call #77'],
        ['user.two_factor_reset.cancel', 'the owner found the phone'],
        ['user.two_factor_reset.open', 'lost phone, identity checked by video call #77'],
        ['user.two_factor_reset.complete', 'lost phone, identity checked by video call #77'],
      ]);
    });

    it('refuses: a user (403), no reason or a control character (1001), two-factor off, an operator (3007), unknown uid (4004)', async () => {
      const u = await owner();
      const plain = await createUser(t);
      expect((await open(u.uid, 'x', plain.token)).status).toBe(403);
      expect((await open(u.uid, '')).code).toBe(1001);
      expect((await open(u.uid, 'bad\u0000reason')).code).toBe(1001);
      expect((await open(plain.uid)).code).toBe(3007);
      expect((await open(operator.uid)).code).toBe(3007);
      const other = await createUser(t, { role: 'operator' });
      expect((await open(other.uid)).code).toBe(3007);
      expect((await open(999_999)).code).toBe(4004);
      expect((await call<TwoFactorResetData>('GET', '/api/2fa/reset', { token: u.token })).data.pending).toBeNull();
      expect(await audit(u.uid)).toEqual([]);
    });

    it('turning two-factor off with a code cancels the open reset, so a new authenticator is not removed later', async () => {
      const email = newEmail();
      const token = await signUp(t, email, password);
      const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token });
      const totp = (offset: number) => authenticatorCode(setup.data.secret, offset);
      const enabled = await sendPreviousCode(setup.data.secret, (code) =>
        call('POST', '/api/2fa/enable', { token, body: { code, password } }),
      );
      expect(enabled.answer.code).toBe(0);
      const uid = (await call<CurrentUser>('GET', '/api/getCurrentUser', { token })).data.uid;
      expect((await open(uid)).code).toBe(0);
      expect((await call('POST', '/api/2fa/disable', { token, body: { code: totp(0) } })).code).toBe(0);
      expect((await call<TwoFactorResetData>('GET', '/api/2fa/reset', { token })).data.pending).toBeNull();
      expect((await audit(uid)).map((a) => [a.action, a.actor])).toEqual([
        ['user.two_factor_reset.open', operator.email],
        ['user.two_factor_reset.cancel', email],
      ]);
    });
  });
});
