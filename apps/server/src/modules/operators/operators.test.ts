import type {
  CurrentUser,
  LoginAnswer,
  LoginData,
  OperatorItem,
  OperatorRolesData,
  OperatorSessionData,
  TwoFactorSetupData,
} from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode, sendPreviousCode } from '../../test/authenticator.ts';
import { type Client, client, createUser, type TestUser } from '../../test/users.ts';
import { signUp } from '../auth/test-helpers.ts';
import { ROUTE_ROLES } from './permissions.ts';
import { bootstrapAdmin } from './service.ts';

interface Route {
  method: 'GET' | 'POST';
  url: string;
  key: string;
}

/** Every operator-guarded route: the OpenAPI document's admin paths, and the hidden metrics. */
async function adminRoutes(t: TestApp): Promise<Route[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
  const routes = Object.entries(doc.paths)
    .filter(([p]) => p.includes('/admin/') || p.startsWith('/api/admin'))
    .flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => ({
        method: m.toUpperCase() as 'GET' | 'POST',
        url: p.replace(/\{[^}]+\}/g, '1'),
        key: `${m.toUpperCase()} ${p.replace(/\{([^}]+)\}/g, ':$1')}`,
      })),
    );
  routes.push({ method: 'GET', url: '/api/admin/metrics', key: 'GET /api/admin/metrics' });
  return routes;
}

describe('operators held to a higher bar', () => {
  let t: TestApp;
  let call: Client;
  let routes: Route[];
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off', OPERATOR_IDLE_MINUTES: '30', OPERATOR_SESSION_HOURS: '8' });
    call = client(t);
    routes = await adminRoutes(t);
  });
  afterAll(() => t.close());

  /** Status and code of every admin route for this token (a bad body: the guard answers first). */
  async function walk(token: string) {
    const out: { key: string; status: number; code: number }[] = [];
    for (const r of routes) {
      const res = await t.app.inject({
        method: r.method,
        url: r.url,
        headers: { 'x-token': token, ...(r.method === 'POST' && { 'content-type': 'application/json' }) },
        ...(r.method === 'POST' && { payload: '{}' }),
      });
      // The metrics answer is Prometheus text, not the envelope.
      const code = res.headers['content-type']?.toString().includes('json') ? (res.json() as { code: number }).code : 0;
      out.push({ key: r.key, status: res.statusCode, code });
    }
    return out;
  }

  it('has every admin route of the API in the permissions table, and nothing else', async () => {
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.filter((r) => !(r.key in ROUTE_ROLES)).map((r) => r.key);
    expect(missing).toEqual([]);
    const stale = Object.keys(ROUTE_ROLES).filter((key) => {
      const [method, url] = key.split(' ') as ['GET' | 'POST', string];
      return !t.app.hasRoute({ method, url });
    });
    expect(stale).toEqual([]);
  });

  it('refuses every admin route to an operator without a second factor (3045, HTTP 403), in both languages', async () => {
    const op = await createUser(t, { role: 'operator', secondFactor: false });
    const answers = await walk(op.token);
    expect(answers.filter((a) => a.status !== 403 || a.code !== 3045)).toEqual([]);
    const zh = await call('GET', '/api/admin/dashboard', { token: op.token });
    expect(zh.message).toContain('安全中心');
    const en = await call('GET', '/api/admin/dashboard', { token: op.token, lang: 'en-US' });
    expect(en.message).toContain("wallet's security centre");
    // Its own wallet keeps working.
    expect((await call('GET', '/api/getCurrentUser', { token: op.token })).code).toBe(0);
    const session = await call<OperatorSessionData>('GET', '/api/operator/session', { token: op.token });
    expect(session.data).toMatchObject({ secondFactorEnrolled: false, sessionVerified: false, idleMinutes: 30 });
  });

  it('refuses a session that did not pass the second factor (3046), and one marked before the factor was enrolled', async () => {
    const op = await createUser(t, { role: 'operator', sessionVerified: false });
    const answers = await walk(op.token);
    expect(answers.filter((a) => a.status !== 403 || a.code !== 3046)).toEqual([]);
    // Marked, but before the passkey that exists now was enrolled (a factor removed and enrolled again).
    const marked = await createUser(t, { role: 'operator' });
    await t.database.sql.query('update passkeys set created_at = now() where user_id = $1', [marked.uid]);
    await t.database.sql.query(`update sessions set second_factor_at = now() - interval '1 minute' where user_id = $1`, [marked.uid]);
    expect(await call('GET', '/api/admin/dashboard', { token: marked.token })).toMatchObject({ status: 403, code: 3046 });
    // A plain user is still just 403 (4003).
    const user = await createUser(t);
    expect(await call('GET', '/api/admin/dashboard', { token: user.token })).toMatchObject({ status: 403, code: 4003 });
    expect(await call('GET', '/api/operator/session', { token: user.token })).toMatchObject({ status: 403, code: 4003 });
  });

  it('lets an operator in only after signing in with the authenticator code, or stepping up with it', async () => {
    const password = 'correct-horse-battery-1';
    const email = 'first-admin@coffer.test';
    const first = await signUp(t, email, password);
    expect(await bootstrapAdmin(t.database, [email])).toBeNull(); // createUser's operators are admins already
    await t.database.sql.query(`update users set role = 'operator' where email = $1`, [email]);
    await t.database.sql.query(
      `insert into operator_roles (user_id, role, granted_by) select id, 'support', 'test' from users where email = $1`,
      [email],
    );
    expect(await call('GET', '/api/admin/users', { token: first })).toMatchObject({ status: 403, code: 3045 });
    // Enrol an authenticator in the wallet (re-authenticate, set up, first code).
    expect((await call('POST', '/api/security/reauth', { token: first, body: { password } })).code).toBe(0);
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token: first });
    const code = (offset: number) => authenticatorCode(setup.data.secret, offset);
    const enabled = await sendPreviousCode(setup.data.secret, (sent) =>
      call('POST', '/api/2fa/enable', { token: first, body: { code: sent } }),
    );
    expect(enabled.answer.code).toBe(0);
    // The session was opened before the factor: still refused.
    expect(await call('GET', '/api/admin/users', { token: first })).toMatchObject({ status: 403, code: 3046 });
    // A password-only sign-in is a challenge; with the code, a session that passes.
    const login = await call<LoginAnswer>('POST', '/api/login', { body: { email, password } });
    if (!('secondFactor' in login.data)) throw new Error('expected a second-factor challenge');
    const second = await call<LoginData>('POST', '/api/login/2fa', {
      body: { challenge: login.data.secondFactor.challenge, code: code(0) },
    });
    expect(second.code).toBe(0);
    const verified = second.data.tokenHead + second.data.token;
    expect(await call('GET', '/api/admin/users', { token: verified })).toMatchObject({ status: 200, code: 0 });
    // The old session steps up with a code and passes from then on.
    expect((await call('POST', '/api/security/reauth', { token: first, body: { code: code(1) } })).code).toBe(0);
    expect(await call('GET', '/api/admin/users', { token: first })).toMatchObject({ status: 200, code: 0 });
    const session = await call<OperatorSessionData>('GET', '/api/operator/session', { token: first });
    expect(session.data).toMatchObject({ email, roles: ['support'], secondFactorEnrolled: true, sessionVerified: true });
  });

  it('ends an operator session idle longer than OPERATOR_IDLE_MINUTES or older than OPERATOR_SESSION_HOURS, on every request', async () => {
    const setSession = (u: TestUser, column: 'last_seen_at' | 'created_at', minutesAgo: number) =>
      t.database.sql.query(`update sessions set ${column} = now() - make_interval(mins => $2) where user_id = $1`, [u.uid, minutesAgo]);
    const idle = await createUser(t, { role: 'operator' });
    // 29 minutes idle (and the minute last_seen_at may lag): still in.
    await setSession(idle, 'last_seen_at', 30);
    expect(await call('GET', '/api/admin/dashboard', { token: idle.token })).toMatchObject({ code: 0 });
    await setSession(idle, 'last_seen_at', 32);
    const refused = await call('GET', '/api/admin/dashboard', { token: idle.token, lang: 'en-US' });
    expect(refused).toMatchObject({ status: 200, code: 2001 });
    expect(refused.message).toContain('30 minutes without activity');
    // The wallet's requests of that operator too.
    expect((await call('GET', '/api/getCurrentUser', { token: idle.token })).code).toBe(2001);

    const old = await createUser(t, { role: 'operator' });
    await setSession(old, 'created_at', 8 * 60 - 2);
    await setSession(old, 'last_seen_at', 0);
    expect((await call('GET', '/api/admin/dashboard', { token: old.token })).code).toBe(0);
    await setSession(old, 'created_at', 8 * 60 + 1);
    await setSession(old, 'last_seen_at', 0);
    const tooOld = await call('GET', '/api/getCurrentUser', { token: old.token });
    expect(tooOld.code).toBe(2001);
    expect(tooOld.message).toContain('8 小时');

    // A wallet user's session is not held to it.
    const user = await createUser(t);
    await setSession(user, 'last_seen_at', 24 * 60);
    expect((await call('GET', '/api/getCurrentUser', { token: user.token })).code).toBe(0);
  });

  it('pulls an operator session’s expiry in at each last-seen write, so every other path ends it too', async () => {
    const op = await createUser(t, { role: 'operator' });
    await call('GET', '/api/getCurrentUser', { token: op.token });
    const [row] = await t.database.sql.query<{ minutes: number }>(
      'select extract(epoch from expires_at - now()) / 60 as minutes from sessions where user_id = $1',
      [op.uid],
    );
    expect(Number(row!.minutes)).toBeGreaterThan(30);
    expect(Number(row!.minutes)).toBeLessThanOrEqual(31.1);
  });

  it('walks every admin route per role: 403 exactly where the role lacks the right', async () => {
    for (const role of ['support', 'finance', 'admin'] as const) {
      const op = await createUser(t, { role: 'operator', roles: [role] });
      const answers = await walk(op.token);
      const wrong = answers.filter((a) => {
        const right = ROUTE_ROLES[a.key];
        const allowed = right === 'any' || right === role;
        return allowed ? a.status === 403 : a.status !== 403 || a.code !== 4003;
      });
      expect({ role, wrong }).toEqual({ role, wrong: [] });
      expect(answers.filter((a) => a.status !== 403).length).toBeGreaterThan(2);
    }
    const support = await createUser(t, { role: 'operator', roles: ['support'] });
    const refused = await call('GET', '/api/admin/networks', { token: support.token, lang: 'en-US' });
    expect(refused.message).toBe('Forbidden: this needs the admin role');
  });

  it('lets an admin set roles (audited, before/after), make and unmake operators, and never remove the last admin', async () => {
    await t.database.sql.query(`delete from operator_roles where role = 'admin'`);
    const admin = await createUser(t, { role: 'operator', roles: ['admin'] });
    const user = await createUser(t);
    const set = (token: string, uid: number, body: unknown, lang?: string) =>
      call<OperatorRolesData>('POST', `/api/admin/operators/${uid}/roles`, { token, body, lang });

    const made = await set(admin.token, user.uid, { roles: ['finance', 'support'], reason: 'new hire' });
    expect(made.data).toMatchObject({ uid: user.uid, roles: ['support', 'finance'], changed: true, totp: false, passkeys: 0 });
    expect((await call<CurrentUser>('GET', '/api/getCurrentUser', { token: user.token })).data.role).toBe('operator');
    expect((await set(admin.token, user.uid, { roles: ['support', 'finance'], reason: 'again' })).data.changed).toBe(false);
    const list = await call<OperatorItem[]>('GET', '/api/admin/operators', { token: admin.token });
    expect(list.data.find((o) => o.uid === user.uid)?.roles).toEqual(['support', 'finance']);

    const removed = await set(admin.token, user.uid, { roles: [], reason: 'left the team' });
    expect(removed.data).toMatchObject({ roles: [], changed: true });
    expect((await call<CurrentUser>('GET', '/api/getCurrentUser', { token: user.token })).data.role).toBe('user');

    const trail = await t.database.sql.query<{ actor: string; reason: string; before: unknown; after: unknown }>(
      `select actor, reason, before, after from operator_actions where action = 'operator.roles.set' and target_id = $1 order by id`,
      [String(user.uid)],
    );
    expect(trail).toEqual([
      {
        actor: admin.email,
        reason: 'new hire',
        before: { operator: false, roles: [] },
        after: { operator: true, roles: ['support', 'finance'] },
      },
      {
        actor: admin.email,
        reason: 'left the team',
        before: { operator: true, roles: ['support', 'finance'] },
        after: { operator: false, roles: [] },
      },
    ]);

    // Bad input and an unknown uid.
    expect((await set(admin.token, user.uid, { roles: ['root'], reason: 'x' })).code).toBe(1001);
    expect((await set(admin.token, user.uid, { roles: ['admin', 'admin'], reason: 'x' })).code).toBe(1001);
    expect((await set(admin.token, user.uid, { roles: ['admin'], reason: '' })).code).toBe(1001);
    expect((await set(admin.token, user.uid, { roles: ['admin'], reason: 'x\u0000' })).code).toBe(1001);
    expect((await set(admin.token, 999_999_999, { roles: ['admin'], reason: 'x' })).code).toBe(4004);

    // The last admin keeps the role; with a second admin it may go.
    const last = await set(admin.token, admin.uid, { roles: ['finance'], reason: 'oops' }, 'en-US');
    expect(last).toMatchObject({ status: 200, code: 3047, message: 'The last admin cannot lose the admin role' });
    await set(admin.token, user.uid, { roles: ['admin'], reason: 'second admin' });
    expect((await set(admin.token, admin.uid, { roles: ['finance'], reason: 'moving to finance' })).data.roles).toEqual(['finance']);

    // Now only finance: the roles API is refused to it.
    expect(await set(admin.token, user.uid, { roles: [], reason: 'x' })).toMatchObject({ status: 403, code: 4003 });
  });

  it('makes an existing OPERATOR_EMAILS account the admin at start only while there is none', async () => {
    await t.database.sql.query(`delete from operator_roles where role = 'admin'`);
    const a = await createUser(t, { email: 'boot-a@coffer.test' });
    const b = await createUser(t, { email: 'boot-b@coffer.test' });
    expect(await bootstrapAdmin(t.database, ['nobody@coffer.test', 'boot-a@coffer.test'])).toBe(a.uid);
    expect(await bootstrapAdmin(t.database, ['boot-b@coffer.test'])).toBeNull();
    const roles = await t.database.sql.query<{ user_id: string; role: string }>(
      `select user_id, role from operator_roles where user_id in ($1, $2) order by role`,
      [a.uid, b.uid],
    );
    expect(roles.map((r) => [Number(r.user_id), r.role])).toEqual([
      [a.uid, 'admin'],
      [a.uid, 'finance'],
      [a.uid, 'support'],
    ]);
  });
});
