import type {
  Balance,
  LoginData,
  Network,
  PasskeyItem,
  PasskeyOptionsData,
  SecurityHoldData,
  TwoFactorEnableData,
  TwoFactorSetupData,
} from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode as codeOf, sendPreviousCode } from '../../test/authenticator.ts';
import { waitFor } from '../../test/wait.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { client, createUser, fund } from '../../test/users.ts';
import { decodeMail, mailsTo, sendMailUrl, signUp } from '../auth/test-helpers.ts';
import { SoftAuthenticator } from '../passkeys/soft-authenticator.ts';

/**
 * Withdrawal holds after a credential change (docs/security.md, "Withdrawal hold"): what opens
 * one, the refusal (3014) with the time left, the owner's mail, and ending it early only with
 * the second factor.
 */
describe('withdrawal hold after a credential change', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let eth: Network;
  const password = 'correct horse battery staple 42';
  const outside = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
  const elsewhere = '203.0.113.7';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    eth = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
  });
  afterAll(() => t.close());

  const holdOf = async (token: string) => (await call<SecurityHoldData>('GET', '/api/security/hold', { token })).data;
  const uidOf = async (email: string) =>
    (await t.database.sql.query<{ id: number }>('select id from users where email = $1', [email]))[0]!.id;

  async function passwordUser(lang = 'en-US') {
    const email = `hold-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const token = await signUp(t, email, password, { lang });
    const uid = await uidOf(email);
    await fund(t, uid, 'ETH', '10');
    return { email, token, uid };
  }

  async function enrol(token: string) {
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token });
    const { answer: enabled } = await sendPreviousCode(setup.data.secret, (code) =>
      call<TwoFactorEnableData>('POST', '/api/2fa/enable', { token, body: { code, password } }),
    );
    expect(enabled.code).toBe(0);
    return { secret: setup.data.secret, recoveryCodes: enabled.data.recoveryCodes };
  }

  /** Mails a code and reads it once its mail has arrived (codes are mailed after the answer). */
  async function mailedCode(email: string, type: 'withdraw' | 'reset', token?: string) {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    const before = mailsTo(t, email).length;
    expect((await call('GET', sendMailUrl(email, type), { token })).code).toBe(0);
    await expect.poll(() => mailsTo(t, email).length).toBeGreaterThan(before);
    return t.mailbox.lastCode(email);
  }

  async function withdraw(u: { email: string; token: string }, opts: { lang?: string; totp?: string } = {}) {
    const code = await mailedCode(u.email, 'withdraw', u.token);
    return applyWithdraw(call, {
      token: u.token,
      lang: opts.lang,
      body: {
        currencyId: eth.currencyId,
        networkId: eth.id,
        address: outside,
        amount: '0.01',
        code,
        ...(opts.totp && { totp: opts.totp }),
      },
    });
  }

  /** The hold mail reached the owner in their language (sent after the answer: polled). */
  async function holdMailed(email: string, subject: string) {
    return waitFor(
      () =>
        mailsTo(t, email)
          .map((m) => decodeMail(m.raw))
          .find((m) => m.subject === subject),
      `a "${subject}" mail to ${email}`,
    );
  }

  it('opens none at sign-up or on a sign-in from a known device; a new device opens one and mails the owner', async () => {
    const u = await passwordUser('en-US');
    expect(await holdOf(u.token)).toEqual({ hold: null, canCancel: false });
    const again = await call<LoginData>('POST', '/api/login', { body: { email: u.email, password } });
    expect(again.code).toBe(0);
    expect((await holdOf(u.token)).hold).toBeNull();
    expect((await withdraw(u)).code).toBe(0);

    const fromElsewhere = await call<LoginData>('POST', '/api/login', { body: { email: u.email, password }, ip: elsewhere });
    expect(fromElsewhere.code).toBe(0);
    const state = await holdOf(u.token);
    expect(state).toMatchObject({ hold: { reason: 'new_device' }, canCancel: false });
    expect(state.hold!.secondsLeft).toBeGreaterThan(24 * 3600 - 60);
    expect(state.hold!.secondsLeft).toBeLessThanOrEqual(24 * 3600);
    const mail = await holdMailed(u.email, 'Coffer: withdrawals are on hold');
    expect(mail.text).toContain('a sign-in from a new device');
    expect(mail.text).toMatch(/Withdrawals wait until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  });

  it('refuses withdrawals during a hold with 3014 and the time left, in both languages, moving nothing', async () => {
    const u = await passwordUser('zh-CN');
    await call('POST', '/api/login', { body: { email: u.email, password }, ip: elsewhere });
    const before = (await call<Balance>('GET', `/api/currency/balance/${eth.currencyId}`, { token: u.token })).data;
    const zh = await withdraw(u, { lang: 'zh-CN' });
    expect(zh.code).toBe(3014);
    expect(zh.message).toMatch(/剩余 (23 小时 59 分钟|24 小时)（原因：新设备登录）/);
    const en = await withdraw(u, { lang: 'en-US' });
    expect(en.code).toBe(3014);
    expect(en.message).toMatch(/(23 h 59 min|24 h) left \(reason: sign-in from a new device\)/);
    expect((await call<Balance>('GET', `/api/currency/balance/${eth.currencyId}`, { token: u.token })).data).toEqual(before);
    await holdMailed(u.email, 'Coffer：提现已暂缓');
  });

  it('opens a hold on a password reset by e-mail', async () => {
    const u = await passwordUser();
    const code = await mailedCode(u.email, 'reset');
    const reset = await call('POST', '/api/resetPassword', { body: { email: u.email, code, password: 'another Long pass 43' } });
    expect(reset.code).toBe(0);
    const token = (await call<LoginData>('POST', '/api/login', { body: { email: u.email, password: 'another Long pass 43' } })).data;
    expect((await holdOf(token.tokenHead + token.token)).hold).toMatchObject({ reason: 'password_reset' });
    await holdMailed(u.email, 'Coffer: withdrawals are on hold');
  });

  it('opens a hold when two-factor is turned off, and when a passkey is added or removed', async () => {
    const u = await passwordUser();
    const { recoveryCodes } = await enrol(u.token);
    expect((await holdOf(u.token)).hold).toBeNull();
    expect((await call('POST', '/api/2fa/disable', { token: u.token, body: { code: recoveryCodes[0] } })).code).toBe(0);
    expect((await holdOf(u.token)).hold).toMatchObject({ reason: 'two_factor_disabled' });

    const v = await createUser(t, { reauthenticated: true });
    const key = new SoftAuthenticator('http://localhost:8080', 'localhost');
    const options = await call<PasskeyOptionsData>('POST', '/api/passkeys/register/options', { token: v.token, body: {} });
    const added = await call<PasskeyItem>('POST', '/api/passkeys/register', {
      token: v.token,
      body: { challenge: options.data.challenge, response: key.create(options.data.options) },
    });
    expect(added.code).toBe(0);
    expect((await holdOf(v.token)).hold).toMatchObject({ reason: 'passkey_added' });
    await t.database.sql.query('update security_holds set cancelled_at = now() where user_id = $1', [v.uid]);
    expect((await call('POST', '/api/passkeys/remove', { token: v.token, body: { id: added.data.id } })).code).toBe(0);
    expect((await holdOf(v.token)).hold).toMatchObject({ reason: 'passkey_removed' });
  });

  it('opens a hold on a password change in the security centre, and when an operator-assisted two-factor reset completes', async () => {
    const u = await passwordUser();
    const changed = await call('POST', '/api/security/changePassword', {
      token: u.token,
      body: { currentPassword: password, newPassword: 'a Changed long pass 44' },
    });
    expect(changed.code).toBe(0);
    expect((await holdOf(u.token)).hold).toMatchObject({ reason: 'password_changed' });

    const v = await passwordUser();
    await enrol(v.token);
    const operator = await createUser(t, { role: 'operator' });
    const opened = await call('POST', `/api/admin/users/${v.uid}/two-factor-reset`, {
      token: operator.token,
      body: { reason: 'lost phone' },
    });
    expect(opened.code).toBe(0);
    expect((await holdOf(v.token)).hold).toBeNull();
    // The waiting period passes (moved through the database, no sleep); reading the reset completes it.
    await t.database.sql.query(
      "update two_factor_resets set created_at = created_at - interval '73 hours', completes_at = completes_at - interval '73 hours' where user_id = $1",
      [v.uid],
    );
    expect((await call<{ pending: unknown }>('GET', '/api/2fa/reset', { token: v.token })).data.pending).toBeNull();
    // Completing it ended the account's sessions; the hold is there for the next one.
    expect((await call('GET', '/api/security/hold', { token: v.token })).code).toBe(2001);
    const [held] = await t.database.sql.query<{ reason: string }>(
      'select reason from security_holds where user_id = $1 and cancelled_at is null and ends_at > now()',
      [v.uid],
    );
    expect(held?.reason).toBe('two_factor_disabled');
  });

  it('ends early only with the second factor: refused without one, with a wrong or missing code, for another user’s id', async () => {
    // Without a second factor the hold cannot be cancelled: the user waits.
    const plain = await passwordUser();
    await call('POST', '/api/login', { body: { email: plain.email, password }, ip: elsewhere });
    const plainHold = (await holdOf(plain.token)).hold!;
    const refused = await call('POST', `/api/security/hold/cancel/${plainHold.id}`, {
      token: plain.token,
      body: { code: '123456' },
    });
    expect(refused.code).toBe(3007);
    expect((await holdOf(plain.token)).hold?.id).toBe(plainHold.id);

    const u = await passwordUser();
    const { secret, recoveryCodes } = await enrol(u.token);
    const second = await call<LoginData>('POST', '/api/login', { body: { email: u.email, password }, ip: elsewhere });
    expect(second.code).toBe(0); // a challenge: the new-device hold opens when the sign-in finishes
    const challenge = (second.data as unknown as { secondFactor: { challenge: string } }).secondFactor.challenge;
    const finished = await call<LoginData>('POST', '/api/login/2fa', { body: { challenge, code: codeOf(secret) }, ip: elsewhere });
    expect(finished.code).toBe(0);
    const state = await holdOf(u.token);
    expect(state).toMatchObject({ hold: { reason: 'new_device' }, canCancel: true });
    const id = state.hold!.id;
    expect((await withdraw(u, { totp: codeOf(secret, 1) })).code).toBe(3014);

    const url = `/api/security/hold/cancel/${id}`;
    expect((await call('POST', url, { token: u.token, body: {} })).code).toBe(1001);
    expect((await call('POST', url, { token: u.token, body: { code: '000000' } })).code).toBe(2007);
    expect((await call('POST', url, { token: plain.token, body: { code: codeOf(secret) } })).code).toBe(4004);
    expect(
      (await call('POST', `/api/security/hold/cancel/${plainHold.id}`, { token: u.token, body: { code: recoveryCodes[0] } })).code,
    ).toBe(4004);
    expect((await call('POST', url, { body: { code: recoveryCodes[0] } })).code).toBe(2001);
    expect((await holdOf(plain.token)).hold?.id).toBe(plainHold.id);

    const ended = await call<SecurityHoldData>('POST', url, { token: u.token, body: { code: recoveryCodes[0] } });
    expect(ended).toMatchObject({ code: 0, data: { hold: null, canCancel: false } });
    expect((await call('POST', url, { token: u.token, body: { code: recoveryCodes[1] } })).code).toBe(4004);
    await t.database.sql.query('update user_totp set last_step = null');
    expect((await withdraw(u, { totp: codeOf(secret) })).code).toBe(0);
  });

  it('runs out by itself once its time has passed', async () => {
    const u = await passwordUser();
    await call('POST', '/api/login', { body: { email: u.email, password }, ip: elsewhere });
    expect((await withdraw(u)).code).toBe(3014);
    // Move the clock through the database: the hold began 25 hours ago.
    await t.database.sql.query(
      "update security_holds set created_at = created_at - interval '25 hours', ends_at = ends_at - interval '25 hours' where user_id = $1",
      [u.uid],
    );
    expect((await holdOf(u.token)).hold).toBeNull();
    expect((await withdraw(u)).code).toBe(0);
  });
});
