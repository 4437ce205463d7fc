import type {
  Balance,
  CurrentUser,
  Network,
  PasskeyItem,
  PasskeyOptionsData,
  StepUpTokenData,
  SwapApplyData,
  TransferResult,
  TwoFactorEnableData,
  TwoFactorSetupData,
} from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode as codeOf, sendPreviousCode } from '../../test/authenticator.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { signUp } from '../auth/test-helpers.ts';
import { SoftAuthenticator } from '../passkeys/soft-authenticator.ts';

/**
 * The step-up policy (decision 033): with two-factor on, every action that moves value out of
 * the account (withdrawal, transfer by uid or e-mail) needs a second factor — an authenticator
 * code, a recovery code or a passkey assertion — and swaps do too when the user opted in.
 */
describe('step-up: one second-factor policy for every money action', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let usdt: number;
  let eth: number;
  const origin = 'http://localhost:8080';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    const [row] = await t.database.sql.query<{ id: number }>("select id from currencies where code = 'USDT'");
    usdt = Number(row!.id);
    const [e] = await t.database.sql.query<{ id: number }>("select id from currencies where code = 'ETH'");
    eth = Number(e!.id);
  });
  afterAll(() => t.close());

  /** The code of the step `offset` steps from now (-1, 0, 1 are all accepted). */
  const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  async function enrol(u: TestUser) {
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token: u.token });
    expect(setup.code).toBe(0);
    const { answer: enabled } = await sendPreviousCode(setup.data.secret, (code) =>
      call<TwoFactorEnableData>('POST', '/api/2fa/enable', { token: u.token, body: { code } }),
    );
    expect(enabled.code).toBe(0);
    return { secret: setup.data.secret, recoveryCodes: enabled.data.recoveryCodes };
  }

  async function available(u: TestUser, currencyId: number): Promise<string> {
    const res = await call<Balance[]>('GET', '/api/currency/balances', { token: u.token });
    return res.data.find((b) => b.currencyId === currencyId)?.available ?? '0';
  }

  async function victimAndAccomplice() {
    // Turning two-factor on needs a recent password (decision 035): the owner gave it.
    const victim = await createUser(t, { reauthenticated: true });
    const accomplice = await createUser(t);
    await fund(t, victim.uid, 'USDT', '500');
    const { secret, recoveryCodes } = await enrol(victim);
    return { victim, accomplice, secret, recoveryCodes };
  }

  it('a stolen session cannot move the balance out by transfer: 2006 without a code, 2007 wrong, nothing moves', async () => {
    const { victim, accomplice, secret } = await victimAndAccomplice();
    const byUid = await call('POST', '/api/transfer/transferByUID', {
      token: victim.token,
      body: { uid: accomplice.uid, currencyId: usdt, amount: '500' },
    });
    expect(byUid.code).toBe(2006);
    const byEmail = await call('POST', '/api/transfer/transferByEmail', {
      token: victim.token,
      body: { email: accomplice.email, currencyId: usdt, amount: '500' },
      key: 'stolen-session-1',
    });
    expect(byEmail.code).toBe(2006);
    const wrong = await call('POST', '/api/transfer/transferByUID', {
      token: victim.token,
      body: { uid: accomplice.uid, currencyId: usdt, amount: '500', totp: wrongCodeFor(codeOf(secret)) },
    });
    expect(wrong.code).toBe(2007);
    expect(await available(victim, usdt)).toBe('500');
    expect(await available(accomplice, usdt)).toBe('0');

    // The owner, with the code, sends; the refusal was not kept under the key, so the same key works.
    const sent = await call<TransferResult>('POST', '/api/transfer/transferByEmail', {
      token: victim.token,
      body: { email: accomplice.email, currencyId: usdt, amount: '12.5', totp: codeOf(secret) },
      key: 'stolen-session-1',
    });
    expect(sent.code).toBe(0);
    expect(sent.data.amount).toBe('12.5');
    // A replay of the same request answers the same transfer without a new code and moves nothing.
    const replay = await call<TransferResult>('POST', '/api/transfer/transferByEmail', {
      token: victim.token,
      body: { email: accomplice.email, currencyId: usdt, amount: '12.5' },
      key: 'stolen-session-1',
    });
    expect(replay).toMatchObject({ code: 0, data: { id: sent.data.id, replayed: true } });
    // The same key with another body is still refused (3010), code or not.
    const reused = await call('POST', '/api/transfer/transferByEmail', {
      token: victim.token,
      body: { email: accomplice.email, currencyId: usdt, amount: '400' },
      key: 'stolen-session-1',
    });
    expect(reused.code).toBe(3010);
    expect(await available(victim, usdt)).toBe('487.5');
    expect(await available(accomplice, usdt)).toBe('12.5');
  });

  it('a recovery code steps up once; a replayed authenticator code is refused', async () => {
    const { victim, accomplice, secret, recoveryCodes } = await victimAndAccomplice();
    const send = (totp: string) =>
      call<TransferResult>('POST', '/api/transfer/transferByUID', {
        token: victim.token,
        body: { uid: accomplice.uid, currencyId: usdt, amount: '1', totp },
      });
    expect((await send(recoveryCodes[0]!)).code).toBe(0);
    expect((await send(recoveryCodes[0]!)).code).toBe(2007);
    const code = codeOf(secret, 1);
    expect((await send(code)).code).toBe(0);
    expect((await send(code)).code).toBe(2007);
    expect(await available(accomplice, usdt)).toBe('2');
  });

  it('a malformed code is refused as a bad field (1001), in the user language', async () => {
    const { victim, accomplice } = await victimAndAccomplice();
    const res = await call('POST', '/api/transfer/transferByUID', {
      token: victim.token,
      lang: 'en-US',
      body: { uid: accomplice.uid, currencyId: usdt, amount: '1', totp: '12\u00003' },
    });
    expect(res.code).toBe(1001);
    expect(res.message).toMatch(/totp/);
  });

  it('a thief with the session and the password cannot buy a passkey to get around the second factor (2006)', async () => {
    const password = 'owner Long password 51';
    const email = `thief-${Date.now()}@test.coffer`;
    const token = await signUp(t, email, password);
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token });
    const enabled = await sendPreviousCode(setup.data.secret, (code) =>
      call('POST', '/api/2fa/enable', { token, body: { code, password } }),
    );
    expect(enabled.answer.code).toBe(0);
    // Later: the owner's re-authentication has run out; the thief holds the session and the password.
    await t.database.sql.query("update sessions set reauthenticated_at = now() - interval '1 hour' where reauthenticated_at is not null");
    expect((await call('POST', '/api/security/reauth', { token, body: { password } })).code).toBe(2006);
    expect((await call('POST', '/api/passkeys/register/options', { token, body: {} })).code).toBe(2006);
    expect(
      (await call('POST', '/api/passkeys/register/options', { token, body: { code: wrongCodeFor(codeOf(setup.data.secret)) } })).code,
    ).toBe(2007);
    expect((await call('POST', '/api/stepup/passkey/options', { token })).code).toBe(2009);
  });

  it('without two-factor a transfer asks for nothing', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    await fund(t, a.uid, 'USDT', '5');
    const res = await call('POST', '/api/transfer/transferByUID', { token: a.token, body: { uid: b.uid, currencyId: usdt, amount: '5' } });
    expect(res.code).toBe(0);
  });

  it('swaps ask for the second factor only when the user opted in; opting out needs the factor', async () => {
    const { victim: u, secret } = await victimAndAccomplice();
    const swap = (totp?: string) =>
      call<SwapApplyData>('POST', '/api/swap/apply', {
        token: u.token,
        body: { fromCurrencyId: usdt, toCurrencyId: eth, amount: '10', ...(totp && { totp }) },
      });
    expect((await swap()).code).toBe(0);
    const me = async () => (await call<CurrentUser>('GET', '/api/getCurrentUser', { token: u.token })).data;
    expect((await me()).stepUpSwaps).toBe(false);
    expect((await call('POST', '/api/2fa/swaps', { token: u.token, body: { enabled: true } })).code).toBe(0);
    expect((await me()).stepUpSwaps).toBe(true);
    expect((await swap()).code).toBe(2006);
    expect((await swap(wrongCodeFor(codeOf(secret)))).code).toBe(2007);
    expect((await swap(codeOf(secret))).code).toBe(0);
    // A stolen session cannot switch the protection off without the factor.
    expect((await call('POST', '/api/2fa/swaps', { token: u.token, body: { enabled: false } })).code).toBe(2006);
    expect((await call('POST', '/api/2fa/swaps', { token: u.token, body: { enabled: false, totp: codeOf(secret, 1) } })).code).toBe(0);
    expect((await me()).stepUpSwaps).toBe(false);
    expect((await swap()).code).toBe(0);
  });

  it('opting in to swap step-up needs two-factor on (3007)', async () => {
    const u = await createUser(t);
    expect((await call('POST', '/api/2fa/swaps', { token: u.token, body: { enabled: true } })).code).toBe(3007);
  });

  describe('a passkey assertion satisfies the policy', () => {
    async function withPasskey() {
      const { victim, accomplice, secret } = await victimAndAccomplice();
      const key = new SoftAuthenticator(origin, 'localhost');
      const options = await call<PasskeyOptionsData>('POST', '/api/passkeys/register/options', {
        token: victim.token,
        body: { code: codeOf(secret, 1) },
      });
      expect(options.code).toBe(0);
      const created = await call<PasskeyItem>('POST', '/api/passkeys/register', {
        token: victim.token,
        body: { challenge: options.data.challenge, response: key.create(options.data.options) },
      });
      expect(created.code).toBe(0);
      return { victim, accomplice, key };
    }

    async function stepUpToken(u: TestUser, key: SoftAuthenticator) {
      const options = await call<PasskeyOptionsData>('POST', '/api/stepup/passkey/options', { token: u.token });
      expect(options.code).toBe(0);
      const done = await call<StepUpTokenData>('POST', '/api/stepup/passkey', {
        token: u.token,
        body: { challenge: options.data.challenge, response: key.get(options.data.options) },
      });
      expect(done.code).toBe(0);
      expect(done.data.expiresIn).toBeGreaterThan(0);
      return done.data.stepUpToken;
    }

    it('a transfer with a step-up token from a passkey goes through; the token is single-use', async () => {
      const { victim, accomplice, key } = await withPasskey();
      const token = await stepUpToken(victim, key);
      const send = () =>
        call('POST', '/api/transfer/transferByUID', {
          token: victim.token,
          body: { uid: accomplice.uid, currencyId: usdt, amount: '3', stepUpToken: token },
        });
      expect((await send()).code).toBe(0);
      expect((await send()).code).toBe(2008);
      expect(await available(accomplice, usdt)).toBe('3');
    });

    it("another user's step-up token, or a made-up one, is refused (2008)", async () => {
      const { victim, accomplice, key } = await withPasskey();
      const { victim: other } = await victimAndAccomplice();
      const token = await stepUpToken(victim, key);
      const foreign = await call('POST', '/api/transfer/transferByUID', {
        token: other.token,
        body: { uid: accomplice.uid, currencyId: usdt, amount: '1', stepUpToken: token },
      });
      expect(foreign.code).toBe(2008);
      const madeUp = await call('POST', '/api/transfer/transferByUID', {
        token: victim.token,
        body: { uid: accomplice.uid, currencyId: usdt, amount: '1', stepUpToken: 'madeUpToken_0123456789abcdefghijklmnopqrstu' },
      });
      expect(madeUp.code).toBe(2008);
      // The victim's own token was not used up by the foreign attempt.
      const own = await call('POST', '/api/transfer/transferByUID', {
        token: victim.token,
        body: { uid: accomplice.uid, currencyId: usdt, amount: '1', stepUpToken: token },
      });
      expect(own.code).toBe(0);
    });

    it('an assertion of another passkey than the user’s is refused (2009)', async () => {
      const { victim } = await withPasskey();
      const stranger = new SoftAuthenticator(origin, 'localhost');
      const options = await call<PasskeyOptionsData>('POST', '/api/stepup/passkey/options', { token: victim.token });
      const done = await call('POST', '/api/stepup/passkey', {
        token: victim.token,
        body: { challenge: options.data.challenge, response: stranger.get(options.data.options) },
      });
      expect(done.code).toBe(2009);
    });

    it('a withdrawal accepts the passkey step-up too', async () => {
      const { victim, key } = await withPasskey();
      await fund(t, victim.uid, 'ETH', '2');
      // Adding the passkey opened a withdrawal hold (decision 036); its time has passed.
      await t.database.sql.query(
        "update security_holds set created_at = now() - interval '2 days', ends_at = now() - interval '1 day' where user_id = $1",
        [victim.uid],
      );
      const net = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
      await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
      expect(
        (await call('GET', `/api/sendMail?email=${encodeURIComponent(victim.email)}&type=withdraw`, { token: victim.token })).code,
      ).toBe(0);
      const code = await t.mailbox.lastCode(victim.email);
      const res = await applyWithdraw(call, {
        token: victim.token,
        body: {
          currencyId: net.currencyId,
          networkId: net.id,
          address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
          amount: '1',
          code,
          stepUpToken: await stepUpToken(victim, key),
        },
      });
      expect(res.code).toBe(0);
    });

    it('a user without passkeys gets no step-up options (2009)', async () => {
      const { victim } = await victimAndAccomplice();
      expect((await call('POST', '/api/stepup/passkey/options', { token: victim.token })).code).toBe(2009);
    });

    it('step-up endpoints need a session (2001)', async () => {
      expect((await call('POST', '/api/stepup/passkey/options')).code).toBe(2001);
      expect((await call('POST', '/api/stepup/passkey', { body: { challenge: 'x', response: {} } })).code).toBe(2001);
    });
  });
});
