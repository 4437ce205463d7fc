import type { Balance, LoginData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, TOKEN_HEAD } from '../../core/session.ts';
import { createTestApp, type TestApp, testDbKind } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { signUp } from '../auth/test-helpers.ts';

/**
 * What the transfer batch refuses before any balance: a session of a disabled account (and no
 * such session is ever opened beside an operator's disable), and a transfer above the
 * currency's hold-free amount while a security hold is on.
 */
describe('transfer guards: disabled accounts and security holds', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let usdt: number;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
    const [row] = await t.database.sql.query<{ id: number }>("select id from currencies where code = 'USDT'");
    usdt = Number(row!.id);
  });
  afterAll(() => t.close());

  async function available(u: TestUser): Promise<string> {
    const res = await call<Balance>('GET', `/api/currency/balance/${usdt}`, { token: u.token });
    return res.data?.available ?? '0';
  }
  const liveSessions = async (uid: number) =>
    Number(
      (
        await t.database.sql.query<{ n: number }>(
          'select count(*)::int as n from sessions where user_id = $1 and revoked_at is null and expires_at > now()',
          [uid],
        )
      )[0]!.n,
    );

  it('a session that outlived a disable moves nothing (2010), by uid or e-mail', async () => {
    const u = await createUser(t);
    const to = await createUser(t);
    await fund(t, u.uid, 'USDT', '50');
    // The state a racing sign-in left behind before the fix: disabled, with a live session.
    await t.database.sql.query('update users set disabled_at = now() where id = $1', [u.uid]);
    const byUid = await call('POST', '/api/transfer/transferByUID', {
      token: u.token,
      body: { uid: to.uid, currencyId: usdt, amount: '50' },
    });
    expect(byUid.code).toBe(2010);
    const byEmail = await call('POST', '/api/transfer/transferByEmail', {
      token: u.token,
      body: { email: to.email, currencyId: usdt, amount: '50' },
      key: 'after-disable',
    });
    expect(byEmail.code).toBe(2010);
    await t.database.sql.query('update users set disabled_at = null where id = $1', [u.uid]);
    expect(await available(u)).toBe('50');
    expect(await available(to)).toBe('0');
  });

  it('a security hold refuses what would take the transfers sent since it began above the hold-free amount (3017)', async () => {
    const u = await createUser(t);
    const to = await createUser(t);
    await fund(t, u.uid, 'USDT', '500');
    const [cur] = await t.database.sql.query<{ free: string }>('select hold_free_transfer::text as free from currencies where id = $1', [
      usdt,
    ]);
    expect(Number.parseInt(cur!.free, 10)).toBe(100);
    await t.database.sql.query(
      "insert into security_holds (user_id, reason, ends_at) values ($1, 'password_reset', now() + interval '24 hours')",
      [u.uid],
    );
    const send = (amount: string, key?: string) =>
      call('POST', '/api/transfer/transferByUID', { token: u.token, body: { uid: to.uid, currencyId: usdt, amount }, ...(key && { key }) });
    const big = await send('100.01', 'held-transfer-1');
    expect(big.code).toBe(3017);
    expect((await send('60')).code).toBe(0);
    expect((await send('40')).code).toBe(0);
    // Small transfers do not add up past the hold-free amount: everything sent since the hold began counts.
    expect((await send('0.01')).code).toBe(3017);
    // Not kept under the key: once the hold is over, the same request goes through.
    await t.database.sql.query(
      "update security_holds set ends_at = now() - interval '1 second', created_at = now() - interval '1 day' where user_id = $1",
      [u.uid],
    );
    expect((await send('100.01', 'held-transfer-1')).code).toBe(0);
    expect(await available(to)).toBe('200.01');
  });

  it('a cancelled hold no longer refuses', async () => {
    const u = await createUser(t);
    const to = await createUser(t);
    await fund(t, u.uid, 'USDT', '500');
    await t.database.sql.query(
      "insert into security_holds (user_id, reason, ends_at, cancelled_at) values ($1, 'new_device', now() + interval '24 hours', now())",
      [u.uid],
    );
    expect(
      (await call('POST', '/api/transfer/transferByUID', { token: u.token, body: { uid: to.uid, currencyId: usdt, amount: '300' } })).code,
    ).toBe(0);
  });

  it("another user's hold does not touch this user", async () => {
    const held = await createUser(t);
    const u = await createUser(t);
    await fund(t, u.uid, 'USDT', '500');
    await t.database.sql.query(
      "insert into security_holds (user_id, reason, ends_at) values ($1, 'passkey_added', now() + interval '1 hour')",
      [held.uid],
    );
    expect(
      (await call('POST', '/api/transfer/transferByUID', { token: u.token, body: { uid: held.uid, currencyId: usdt, amount: '300' } }))
        .code,
    ).toBe(0);
  });

  // Two connections at once: PGlite has one, so the races run on PostgreSQL.
  describe.runIf(testDbKind === 'postgres')('sign-in racing a disable (PostgreSQL)', () => {
    it('a session insert waits for a disable in flight and is refused (2010); nothing live is left', async () => {
      const u = await createUser(t);
      const own = await t.database.dedicated!();
      try {
        // The operator's disable, as console-admin does it, held open before its commit.
        await own.query('begin');
        await own.query('update users set disabled_at = now() where id = $1', [u.uid]);
        await own.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null', [u.uid]);
        const opening = createSession(t.database.db, u.uid, 1, {}).then(
          () => 'opened',
          (e: unknown) => (e as { bizCode?: number }).bizCode,
        );
        // The insert must wait on the user row (or, before the fix, finish at once).
        let waited = false;
        for (let i = 0; i < 200 && !waited; i++) {
          const [row] = await t.database.sql.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
          );
          waited = Number(row!.n) > 0;
          if (!waited && (await Promise.race([opening, Promise.resolve('pending')])) !== 'pending') break;
        }
        await own.query('commit');
        expect(await opening).toBe(2010);
        expect(waited).toBe(true);
        expect(await liveSessions(u.uid)).toBe(0);
      } finally {
        await own.query('rollback').catch(() => {});
        own.release();
      }
    });

    it('many rounds of sign-ins racing the operator’s disable: no token moves money afterwards', async () => {
      const operator = await createUser(t, { role: 'operator' });
      const sink = await createUser(t);
      const password = 'correct horse battery staple 42';
      const ROUNDS = 6;
      const SIGN_INS = 6;
      let tokens = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const email = `race-${round}-${Date.now()}@test.coffer`;
        await signUp(t, email, password);
        const [row] = await t.database.sql.query<{ id: number }>('select id from users where email = $1', [email]);
        const uid = Number(row!.id);
        await fund(t, uid, 'USDT', '10');
        const logins = Array.from({ length: SIGN_INS }, () => call<LoginData>('POST', '/api/login', { body: { email, password } }));
        // The disable lands while the other sign-ins are between their password check and their session.
        await Promise.race(logins);
        const disable = call('POST', `/api/admin/users/${uid}/disable`, { token: operator.token, body: { reason: 'race test' } });
        const answers = await Promise.all(logins);
        expect((await disable).code).toBe(0);
        for (const answer of answers) {
          if (answer.code !== 0) {
            expect(answer.code).toBe(2010);
            continue;
          }
          tokens++;
          const token = TOKEN_HEAD + answer.data.token;
          const res = await call('POST', '/api/transfer/transferByUID', { token, body: { uid: sink.uid, currencyId: usdt, amount: '1' } });
          expect([2001, 2010]).toContain(res.code);
        }
        expect(await liveSessions(uid)).toBe(0);
      }
      expect(await available(sink)).toBe('0');
      // The race was run: some sign-ins got a token before the disable.
      expect(tokens).toBeGreaterThan(0);
    });
  });
});
