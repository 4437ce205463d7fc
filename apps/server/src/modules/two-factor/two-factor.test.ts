import type { CurrentUser, LoginAnswer, LoginData, Network, TwoFactorEnableData, TwoFactorSetupData } from '@coffer/contract';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode as codeOf, sendPreviousCode } from '../../test/authenticator.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { client, createUser, fund } from '../../test/users.ts';
import { signUp } from '../auth/test-helpers.ts';
import { KEY_FILE_NAME, openSecret } from './secret-box.ts';
import { SECOND_FACTOR_TRIES } from './totp.ts';

/** Authenticator codes: enrolment, sign-in in two steps, recovery codes, replay, withdrawals. */
describe('two-factor authentication (TOTP)', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  const password = 'correct horse battery staple 42';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
  });
  afterAll(() => t.close());

  /** The code of the step `offset` steps from now (-1, 0, 1 are all accepted). */
  const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  /** Forgets which steps were used, so a test can use fresh codes again. */
  const forgetSteps = () => t.database.sql.query('update user_totp set last_step = null');

  async function enrol(token: string) {
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token });
    expect(setup.code).toBe(0);
    const { answer: enabled } = await sendPreviousCode(setup.data.secret, (code) =>
      call<TwoFactorEnableData>('POST', '/api/2fa/enable', { token, body: { code } }),
    );
    expect(enabled.code).toBe(0);
    return { secret: setup.data.secret, recoveryCodes: enabled.data.recoveryCodes };
  }

  async function passwordUser() {
    const email = `tf-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const token = await signUp(t, email, password);
    expect((await call('POST', '/api/security/reauth', { token, body: { password } })).code).toBe(0);
    return { email, token };
  }

  const me = async (token: string) => (await call<CurrentUser>('GET', '/api/getCurrentUser', { token })).data;

  it('enrols: secret and otpauth URI once, a wrong first code is refused, the right one answers 10 recovery codes', async () => {
    const u = await createUser(t, { reauthenticated: true });
    expect((await me(u.token)).twoFactor).toBe(false);
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token: u.token });
    expect(setup.code).toBe(0);
    expect(setup.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.data.uri).toMatch(/^otpauth:\/\/totp\/Coffer:/);
    expect(setup.data.uri).toContain(`secret=${setup.data.secret}`);

    const right = codeOf(setup.data.secret);
    expect((await call('POST', '/api/2fa/enable', { token: u.token, body: { code: wrongCodeFor(right) } })).code).toBe(2007);
    expect((await me(u.token)).twoFactor).toBe(false);

    const enabled = await call<TwoFactorEnableData>('POST', '/api/2fa/enable', { token: u.token, body: { code: right } });
    expect(enabled.code).toBe(0);
    expect(enabled.data.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.data.recoveryCodes).size).toBe(10);
    const user = await me(u.token);
    expect(user.twoFactor).toBe(true);
    expect(JSON.stringify(user)).not.toContain(setup.data.secret);
    // Changing the authenticator needs it switched off first (with a code).
    expect((await call('POST', '/api/2fa/setup', { token: u.token })).code).toBe(3007);
    // The secret is stored encrypted with the key generated into DATA_DIR (0600), bound to its user.
    const [stored] = await t.database.sql.query<{ secret: string }>('select secret from user_totp where user_id = $1', [u.uid]);
    expect(stored!.secret).toMatch(/^v1:/);
    expect(stored!.secret).not.toContain(setup.data.secret);
    expect(openSecret(t.database, u.uid, stored!.secret)).toBe(setup.data.secret);
    expect(() => openSecret(t.database, u.uid + 1, stored!.secret)).toThrow();
    expect(fs.statSync(path.join(t.config.dataDir, KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
    // The recovery codes are stored hashed.
    const rows = await t.database.sql.query<{ code_hash: string }>('select code_hash from recovery_codes where user_id = $1', [u.uid]);
    expect(rows.map((r) => r.code_hash)).not.toContain(enabled.data.recoveryCodes[0]);
  });

  it('signs in in two steps: password, then the code; a used code and a used challenge are refused', async () => {
    const u = await passwordUser();
    const { secret } = await enrol(u.token);
    const first = await call<LoginAnswer>('POST', '/api/login', { body: { email: u.email, password } });
    expect(first.code).toBe(0);
    expect(first.data).not.toHaveProperty('token');
    if (!('secondFactor' in first.data)) throw new Error('no second factor asked');
    const { challenge, methods } = first.data.secondFactor;
    expect(methods).toEqual(['totp']);

    expect((await call('POST', '/api/login/2fa', { body: { challenge, code: wrongCodeFor(codeOf(secret)) } })).code).toBe(2007);
    expect((await call('POST', '/api/login/2fa', { body: { challenge: 'made-up', code: codeOf(secret) } })).code).toBe(2008);
    const code = codeOf(secret, 1);
    const done = await call<LoginData>('POST', '/api/login/2fa', { body: { challenge, code } });
    expect(done.code).toBe(0);
    expect((await me(done.data.tokenHead + done.data.token)).email).toBe(u.email);
    // The challenge is used up.
    expect((await call('POST', '/api/login/2fa', { body: { challenge, code: codeOf(secret, 1) } })).code).toBe(2008);

    // Replay: the same code (or an older one) within its window is refused on a new sign-in.
    const again = await call<LoginAnswer>('POST', '/api/login', { body: { email: u.email, password } });
    if (!('secondFactor' in again.data)) throw new Error('no second factor asked');
    expect((await call('POST', '/api/login/2fa', { body: { challenge: again.data.secondFactor.challenge, code } })).code).toBe(2007);
    expect(
      (await call('POST', '/api/login/2fa', { body: { challenge: again.data.secondFactor.challenge, code: codeOf(secret) } })).code,
    ).toBe(2007);
  });

  it('a recovery code signs in once', async () => {
    const u = await passwordUser();
    const { recoveryCodes } = await enrol(u.token);
    const login = async () => {
      const res = await call<LoginAnswer>('POST', '/api/login', { body: { email: u.email, password } });
      if (!('secondFactor' in res.data)) throw new Error('no second factor asked');
      return res.data.secondFactor.challenge;
    };
    const recovery = recoveryCodes[3]!;
    const ok = await call<LoginData>('POST', '/api/login/2fa', { body: { challenge: await login(), code: recovery.toUpperCase() } });
    expect(ok.code).toBe(0);
    expect((await call('POST', '/api/login/2fa', { body: { challenge: await login(), code: recovery } })).code).toBe(2007);
    // Written without the dash works too.
    const other = recoveryCodes[4]!.replace('-', '');
    expect((await call('POST', '/api/login/2fa', { body: { challenge: await login(), code: other } })).code).toBe(0);
  });

  it('withdrawals need the code when two-factor is on (2006 without, 2007 wrong)', async () => {
    const u = await createUser(t, { reauthenticated: true });
    await fund(t, u.uid, 'ETH', '10');
    const eth = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
    const { secret } = await enrol(u.token);
    await forgetSteps();
    const apply = async (totp?: string) => {
      await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
      expect((await call('GET', `/api/sendMail?email=${encodeURIComponent(u.email)}&type=withdraw`, { token: u.token })).code).toBe(0);
      const code = await t.mailbox.lastCode(u.email);
      return applyWithdraw(call, {
        token: u.token,
        body: {
          currencyId: eth.currencyId,
          networkId: eth.id,
          address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
          amount: '1',
          code,
          ...(totp !== undefined && { totp }),
        },
      });
    };
    expect((await apply()).code).toBe(2006);
    const right = codeOf(secret);
    expect((await apply(wrongCodeFor(right))).code).toBe(2007);
    const done = await apply(right);
    expect(done.code).toBe(0);
    expect(done.data.status).toBeTruthy();
    expect((await apply(right)).code).toBe(2007); // replayed
  });

  it('caps code tries per account: after 10 wrong codes even the right one is refused (1002)', async () => {
    const u = await createUser(t, { reauthenticated: true });
    const { secret } = await enrol(u.token);
    for (let i = 0; i < SECOND_FACTOR_TRIES.max; i++) {
      const res = await call('POST', '/api/2fa/disable', { token: u.token, body: { code: 'aaaaa-aaaaa' } });
      expect(res.code).toBe(2007);
    }
    const capped = await call('POST', '/api/2fa/disable', { token: u.token, body: { code: codeOf(secret, 1) } });
    expect(capped).toMatchObject({ status: 429, code: 1002 });
    expect((await me(u.token)).twoFactor).toBe(true);
  });

  it('disables with a code; then sign-in and withdrawals no longer ask for one', async () => {
    const u = await passwordUser();
    const { secret } = await enrol(u.token);
    expect((await call('POST', '/api/2fa/disable', { token: u.token, body: {} })).code).toBe(1001);
    expect((await call('POST', '/api/2fa/disable', { token: u.token, body: { code: 'zzzzz-zzzzz' } })).code).toBe(2007);
    expect((await call('POST', '/api/2fa/disable', { token: u.token, body: { code: codeOf(secret, 1) } })).code).toBe(0);
    expect((await me(u.token)).twoFactor).toBe(false);
    const login = await call<LoginAnswer>('POST', '/api/login', { body: { email: u.email, password } });
    expect(login.data).toHaveProperty('token');
    expect((await call('POST', '/api/2fa/disable', { token: u.token, body: { code: codeOf(secret, 1) } })).code).toBe(3007);
  });
});
