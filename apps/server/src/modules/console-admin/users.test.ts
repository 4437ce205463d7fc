import type { AdminUserDetail, AdminUserPage, CurrentUser, LoginData, PasskeyItem, PasskeyOptionsData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { signUp } from '../auth/test-helpers.ts';
import { SoftAuthenticator } from '../passkeys/soft-authenticator.ts';

/** Console users: search, one user's page, disabling and enabling sign-in (audited). */
describe('console: users', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let otherOperator: TestUser;
  let plain: TestUser;
  const origin = 'http://localhost:8080';
  const password = 'correct horse battery staple 42';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
    operator = await createUser(t, { email: 'ops@console.test', role: 'operator' });
    otherOperator = await createUser(t, { email: 'ops2@console.test', role: 'operator' });
    plain = await createUser(t, { email: 'plain_1%x@console.test' });
  });
  afterAll(() => t.close());

  const actions = (action: string, uid: number) =>
    t.database.sql.query<{ actor: string; actor_user_id: number; reason: string; before: unknown; after: Record<string, unknown> }>(
      `select actor, actor_user_id, reason, before, after from operator_actions
        where action = $1 and target_type = 'user' and target_id = $2 order by id`,
      [action, String(uid)],
    );
  const login = (email: string) => call<LoginData>('POST', '/api/login', { body: { email, password } });
  const me = (token: string) => call<CurrentUser>('GET', '/api/getCurrentUser', { token });

  it('refuses signed-out callers (2001) and non-operators (403) on every path', async () => {
    const paths: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${plain.uid}`],
      ['POST', `/api/admin/users/${plain.uid}/disable`, { reason: 'x' }],
      ['POST', `/api/admin/users/${plain.uid}/enable`, { reason: 'x' }],
    ];
    for (const [method, url, body] of paths) {
      expect((await call(method, url, { body })).code, url).toBe(2001);
      expect(await call(method, url, { body, token: plain.token }), url).toMatchObject({ status: 403, code: 4003 });
    }
  });

  it('searches by e-mail substring (wildcards literal) or exact uid, newest first', async () => {
    const search = async (q: string, extra = '') =>
      (await call<AdminUserPage>('GET', `/api/admin/users?q=${encodeURIComponent(q)}${extra}`, { token: operator.token })).data;
    expect((await search('CONSOLE.TEST')).list.map((u) => u.email)).toEqual([
      'plain_1%x@console.test',
      'ops2@console.test',
      'ops@console.test',
    ]);
    // "_" and "%" match only themselves: "s_" would match "ops" with a wildcard underscore.
    expect((await search('_1%')).list.map((u) => u.uid)).toEqual([plain.uid]);
    expect((await search('s_')).total).toBe(0);
    expect((await search(String(plain.uid))).list.map((u) => u.uid)).toContain(plain.uid);
    const page = await search('console.test', '&page=2&pageSize=2');
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2, list: [{ uid: operator.uid, role: 'operator', disabled: false }] });
    const all = await call<AdminUserPage>('GET', '/api/admin/users', { token: operator.token });
    expect(all.data.total).toBeGreaterThanOrEqual(3);
  });

  it('answers bad paging and search input with 1001', async () => {
    for (const query of ['page=0', 'pageSize=101', 'page=x', 'page=1&page=2', `q=${encodeURIComponent('a\u202eb')}`]) {
      expect((await call('GET', `/api/admin/users?${query}`, { token: operator.token })).code, query).toBe(1001);
    }
    expect((await call('GET', '/api/admin/users/0', { token: operator.token })).code).toBe(1001);
    expect((await call('GET', '/api/admin/users/abc', { token: operator.token })).code).toBe(1001);
  });

  it("shows one user's profile, balances, last postings and live sessions; 4004 unknown uid", async () => {
    const u = await createUser(t, { email: 'rich@console.test' });
    await createUser(t); // someone else's money must not show
    await fund(t, u.uid, 'USDT', '12.5');
    await fund(t, u.uid, 'BTC', '0.001');
    const detail = await call<AdminUserDetail>('GET', `/api/admin/users/${u.uid}`, { token: operator.token });
    expect(detail).toMatchObject({
      code: 0,
      data: {
        uid: u.uid,
        email: 'rich@console.test',
        role: 'user',
        disabled: false,
        disabledAt: null,
        twoFactor: false,
        activeSessions: 1,
      },
    });
    const byCode = Object.fromEntries(detail.data.balances.map((b) => [b.code, [b.available, b.frozen]]));
    expect(byCode).toEqual({ USDT: ['12.5', '0'], BTC: ['0.001', '0'] });
    expect(detail.data.postings.map((p) => [p.kind, p.code, p.account, p.amount, p.balanceAfter])).toEqual([
      ['adjustment', 'BTC', 'available', '0.001', '0.001'],
      ['adjustment', 'USDT', 'available', '12.5', '12.5'],
    ]);
    expect((await call('GET', '/api/admin/users/999999', { token: operator.token })).code).toBe(4004);
    expect((await call('POST', '/api/admin/users/999999/disable', { token: operator.token, body: { reason: 'x' } })).code).toBe(4004);
  });

  it('disabling ends every session at once and refuses password and passkey sign-in (2010); enabling restores sign-in', async () => {
    const email = 'victim@console.test';
    const first = await signUp(t, email, password);
    const second = (await login(email)).data;
    const secondToken = second.tokenHead + second.token;
    const key = new SoftAuthenticator(origin, 'localhost');
    expect((await call('POST', '/api/security/reauth', { token: first, body: { password } })).code).toBe(0);
    const options = await call<PasskeyOptionsData>('POST', '/api/passkeys/register/options', { token: first, body: {} });
    const added = await call<PasskeyItem>('POST', '/api/passkeys/register', {
      token: first,
      body: { challenge: options.data.challenge, response: key.create(options.data.options) },
    });
    expect(added.code).toBe(0);
    const uid = (await me(first)).data.uid;
    expect((await call<AdminUserDetail>('GET', `/api/admin/users/${uid}`, { token: operator.token })).data.activeSessions).toBe(2);

    const disabled = await call<AdminUserDetail>('POST', `/api/admin/users/${uid}/disable`, {
      token: operator.token,
      body: { reason: '  fraud report #12  ' },
    });
    expect(disabled).toMatchObject({ code: 0, data: { disabled: true, disabledReason: 'fraud report #12', activeSessions: 0 } });
    expect(disabled.data.disabledAt).not.toBeNull();
    expect((await me(first)).code).toBe(2001);
    expect((await me(secondToken)).code).toBe(2001);
    expect((await login(email)).code).toBe(2010);
    expect((await login(email)).message).toBe('该账户已被停用，请联系客服');
    const passkeyLogin = async () => {
      const o = await call<PasskeyOptionsData>('POST', '/api/login/passkey/options', { body: {} });
      return call<LoginData>('POST', '/api/login/passkey', {
        body: { challenge: o.data.challenge, response: key.get(o.data.options) },
        lang: 'en-US',
      });
    };
    expect(await passkeyLogin()).toMatchObject({ code: 2010, message: 'This account is disabled, please contact support' });
    const [row] = await t.database.sql.query<{ n: number }>(
      'select count(*)::int as n from sessions where user_id = $1 and revoked_at is null',
      [uid],
    );
    expect(row!.n).toBe(0);
    // Twice is refused, and leaves no second row.
    expect((await call('POST', `/api/admin/users/${uid}/disable`, { token: operator.token, body: { reason: 'again' } })).code).toBe(3007);

    const enabled = await call<AdminUserDetail>('POST', `/api/admin/users/${uid}/enable`, {
      token: operator.token,
      body: { reason: 'cleared' },
    });
    expect(enabled).toMatchObject({ code: 0, data: { disabled: false, disabledAt: null, disabledReason: null } });
    expect((await login(email)).code).toBe(0);
    expect((await passkeyLogin()).code).toBe(0);
    expect((await me(first)).code).toBe(2001); // revoked sessions stay revoked

    const off = await actions('user.disable', uid);
    expect(off).toHaveLength(1);
    expect(off[0]).toMatchObject({
      actor: 'ops@console.test',
      actor_user_id: operator.uid,
      reason: 'fraud report #12',
      before: { disabled: false, disabledAt: null, reason: null },
      after: { disabled: true, reason: 'fraud report #12', sessionsRevoked: 2 },
    });
    const on = await actions('user.enable', uid);
    expect(on).toHaveLength(1);
    expect(on[0]).toMatchObject({
      reason: 'cleared',
      before: { disabled: true, reason: 'fraud report #12' },
      after: { disabled: false, disabledAt: null, reason: null, sessionsRevoked: 0 },
    });
  });

  it('a session opened by a disabled account is refused by every signed-in route (2010)', async () => {
    const u = await createUser(t);
    expect((await call('POST', `/api/admin/users/${u.uid}/disable`, { token: operator.token, body: { reason: 'x' } })).code).toBe(0);
    // Written behind the API's back: requireSession itself refuses a disabled user.
    await t.database.sql.query('update sessions set revoked_at = null where user_id = $1', [u.uid]);
    expect((await me(u.token)).code).toBe(2010);
  });

  it('refuses to disable oneself or another operator (3007), or without a reason (1001); nothing written', async () => {
    const before = await t.database.sql.query<{ n: number }>('select count(*)::int as n from operator_actions');
    const self = await call('POST', `/api/admin/users/${operator.uid}/disable`, { token: operator.token, body: { reason: 'x' } });
    expect(self.code).toBe(3007);
    const other = await call('POST', `/api/admin/users/${otherOperator.uid}/disable`, { token: operator.token, body: { reason: 'x' } });
    expect(other.code).toBe(3007);
    for (const body of [{}, { reason: '   ' }, { reason: 'a\u0000b' }, { reason: 'x'.repeat(501) }]) {
      expect((await call('POST', `/api/admin/users/${plain.uid}/disable`, { token: operator.token, body })).code).toBe(1001);
    }
    expect((await call('POST', `/api/admin/users/${plain.uid}/enable`, { token: operator.token, body: { reason: 'x' } })).code).toBe(3007);
    const after = await t.database.sql.query<{ n: number }>('select count(*)::int as n from operator_actions');
    expect(after[0]!.n).toBe(before[0]!.n);
    expect((await me(plain.token)).code).toBe(0);
    expect((await me(operator.token)).code).toBe(0);
  });
});
