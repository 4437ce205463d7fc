import type { CurrentUser, LoginAnswer, LoginData, PasskeyItem, PasskeyOptionsData, TwoFactorSetupData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode, sendPreviousCode } from '../../test/authenticator.ts';
import { client, createUser } from '../../test/users.ts';
import { signUp } from '../auth/test-helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

/** Passkeys with a software authenticator: register, list, remove, passwordless and second-factor sign-in. */
describe('passkeys (WebAuthn)', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  const origin = 'http://localhost:8080';
  const password = 'correct horse battery staple 42';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
  });
  afterAll(() => t.close());

  async function register(token: string, authenticator: SoftAuthenticator, name?: string, code?: string) {
    const options = await call<PasskeyOptionsData>('POST', '/api/passkeys/register/options', {
      token,
      body: code ? { code } : {},
    });
    expect(options.code).toBe(0);
    return call<PasskeyItem>('POST', '/api/passkeys/register', {
      token,
      body: { challenge: options.data.challenge, response: authenticator.create(options.data.options), ...(name && { name }) },
    });
  }

  async function passwordless(authenticator: SoftAuthenticator, overrides: { origin?: string } = {}) {
    const options = await call<PasskeyOptionsData>('POST', '/api/login/passkey/options', { body: {} });
    expect(options.code).toBe(0);
    return call<LoginData>('POST', '/api/login/passkey', {
      body: { challenge: options.data.challenge, response: authenticator.get(options.data.options, overrides) },
    });
  }

  const me = async (token: string) => (await call<CurrentUser>('GET', '/api/getCurrentUser', { token })).data;

  it('configures the relying party from the server host by default (localhost for local use)', () => {
    expect(t.config.webauthn).toEqual({ rpId: 'localhost', origins: [origin] });
  });

  it('registers, lists and removes passkeys; a removed one no longer signs in', async () => {
    const u = await createUser(t, { reauthenticated: true });
    const key = new SoftAuthenticator(origin, 'localhost');
    const created = await register(u.token, key, 'My phone');
    expect(created).toMatchObject({ code: 0, data: { name: 'My phone', lastUsedAt: null } });
    // The same authenticator cannot be registered twice.
    expect((await register(u.token, key)).code).toBe(2009);
    const list = await call<PasskeyItem[]>('GET', '/api/passkeys', { token: u.token });
    expect(list.data.map((p) => p.name)).toEqual(['My phone']);
    // Someone else's passkey cannot be removed.
    const other = await createUser(t, { reauthenticated: true });
    expect((await call('POST', '/api/passkeys/remove', { token: other.token, body: { id: created.data.id } })).code).toBe(4004);

    const signedIn = await passwordless(key);
    expect(signedIn.code).toBe(0);
    expect((await me(signedIn.data.tokenHead + signedIn.data.token)).uid).toBe(u.uid);
    const used = await call<PasskeyItem[]>('GET', '/api/passkeys', { token: u.token });
    expect(used.data[0]!.lastUsedAt).not.toBeNull();

    expect((await call('POST', '/api/passkeys/remove', { token: u.token, body: { id: created.data.id } })).code).toBe(0);
    expect((await call<PasskeyItem[]>('GET', '/api/passkeys', { token: u.token })).data).toEqual([]);
    expect((await passwordless(key)).code).toBe(2009);
  });

  it('refuses a wrong origin, an unknown passkey and a reused challenge', async () => {
    const u = await createUser(t, { reauthenticated: true });
    const key = new SoftAuthenticator(origin, 'localhost');
    expect((await register(u.token, key)).code).toBe(0);
    expect((await passwordless(key, { origin: 'http://evil.localhost:8080' })).code).toBe(2009);
    expect((await passwordless(new SoftAuthenticator(origin, 'localhost'))).code).toBe(2009);
    // A registration by a wrong-site authenticator is refused.
    expect((await register(u.token, new SoftAuthenticator('https://evil.example', 'evil.example'))).code).toBe(2009);

    const options = await call<PasskeyOptionsData>('POST', '/api/login/passkey/options', { body: {} });
    const body = { challenge: options.data.challenge, response: key.get(options.data.options) };
    expect((await call('POST', '/api/login/passkey', { body })).code).toBe(0);
    expect((await call('POST', '/api/login/passkey', { body: { ...body, response: key.get(options.data.options) } })).code).toBe(2008);
  });

  it('is the second factor of a password sign-in instead of a code, only with that account’s passkey', async () => {
    const email = `pk-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const token = await signUp(t, email, password);
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token });
    const { answer: enabled, sent: code } = await sendPreviousCode(setup.data.secret, (sent) =>
      call('POST', '/api/2fa/enable', { token, body: { code: sent, password } }),
    );
    expect(enabled.code).toBe(0);
    const key = new SoftAuthenticator(origin, 'localhost');
    // With two-factor on, adding a passkey needs the code itself, whatever re-authentication the
    // session has (the password in /2fa/enable was one): a passkey passes every step-up after.
    expect((await call('POST', '/api/passkeys/register/options', { token, body: {} })).code).toBe(2006);
    expect((await call('POST', '/api/passkeys/register/options', { token, body: { code } })).code).toBe(2007); // replayed
    expect((await register(token, key, undefined, authenticatorCode(setup.data.secret))).code).toBe(0);
    // A passkey of another account does not complete this sign-in.
    const stranger = await createUser(t, { reauthenticated: true });
    const strangerKey = new SoftAuthenticator(origin, 'localhost');
    expect((await register(stranger.token, strangerKey)).code).toBe(0);

    const login = async () => {
      const res = await call<LoginAnswer>('POST', '/api/login', { body: { email, password } });
      if (!('secondFactor' in res.data)) throw new Error('no second factor asked');
      return res.data.secondFactor;
    };
    const second = await login();
    expect(second.methods).toEqual(['totp', 'passkey']);
    const options = await call<PasskeyOptionsData>('POST', '/api/login/passkey/options', { body: { challenge: second.challenge } });
    expect(options.code).toBe(0);
    expect((options.data.options.allowCredentials as { id: string }[]).map((c) => c.id)).toEqual([key.id]);
    expect(
      (await call('POST', '/api/login/passkey', { body: { challenge: second.challenge, response: strangerKey.get(options.data.options) } }))
        .code,
    ).toBe(2009);
    const done = await call<LoginData>('POST', '/api/login/passkey', {
      body: { challenge: second.challenge, response: key.get(options.data.options) },
    });
    expect(done.code).toBe(0);
    expect((await me(done.data.tokenHead + done.data.token)).email).toBe(email);
    // The challenge is used up: the code path cannot reuse it either.
    expect((await call('POST', '/api/login/2fa', { body: { challenge: second.challenge, code: '123456' } })).code).toBe(2008);
  });

  it('removing a passkey needs a code when two-factor is on', async () => {
    const u = await createUser(t, { reauthenticated: true });
    const key = new SoftAuthenticator(origin, 'localhost');
    const created = await register(u.token, key);
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token: u.token });
    const totp = (offset: number) => authenticatorCode(setup.data.secret, offset);
    const enabled = await sendPreviousCode(setup.data.secret, (code) =>
      call('POST', '/api/2fa/enable', { token: u.token, body: { code } }),
    );
    expect(enabled.answer.code).toBe(0);
    expect((await call('POST', '/api/passkeys/remove', { token: u.token, body: { id: created.data.id } })).code).toBe(2006);
    const replayed = { id: created.data.id, code: enabled.sent };
    expect((await call('POST', '/api/passkeys/remove', { token: u.token, body: replayed })).code).toBe(2007);
    expect((await call('POST', '/api/passkeys/remove', { token: u.token, body: { id: created.data.id, code: totp(0) } })).code).toBe(0);
    expect((await call<PasskeyItem[]>('GET', '/api/passkeys', { token: u.token })).data).toEqual([]);
  });
});
