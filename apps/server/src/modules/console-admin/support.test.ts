import type { AdminUserDetail, CurrentUser, LoginData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { signUp } from '../auth/test-helpers.ts';

/** Console support tools on a user's page: security events, forced sign-out, ending a withdrawal hold. */
describe('console: support tools', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let otherOperator: TestUser;
  const password = 'correct horse battery staple 42';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
    operator = await createUser(t, { email: 'ops@support.test', role: 'operator' });
    otherOperator = await createUser(t, { email: 'ops2@support.test', role: 'operator' });
  });
  afterAll(() => t.close());

  const detail = async (uid: number) => (await call<AdminUserDetail>('GET', `/api/admin/users/${uid}`, { token: operator.token })).data;
  const act = (uid: number, path: 'sign-out' | 'holds/end', reason: unknown = 'owner called support', token = operator.token) =>
    call<AdminUserDetail>('POST', `/api/admin/users/${uid}/${path}`, { token, body: { reason } });
  const actions = (action: string, uid: number) =>
    t.database.sql.query<{ actor: string; reason: string; before: unknown; after: unknown }>(
      `select actor, reason, before, after from operator_actions where action = $1 and target_id = $2 order by id`,
      [action, String(uid)],
    );
  const openHold = (uid: number, reason: string, hours: number) =>
    t.database.sql.query(
      `insert into security_holds (user_id, reason, created_at, ends_at) values ($1, $2, now(), now() + make_interval(hours => $3))`,
      [uid, reason, hours],
    );

  it('refuses signed-out callers (2001) and non-operators (403)', async () => {
    const u = await createUser(t);
    for (const path of ['sign-out', 'holds/end'] as const) {
      expect((await call('POST', `/api/admin/users/${u.uid}/${path}`, { body: { reason: 'x' } })).code).toBe(2001);
      expect(await act(u.uid, path, 'x', u.token)).toMatchObject({ status: 403, code: 4003 });
    }
  });

  it('lists sign-ins, refused sign-ins and holds newest first, with the IP and whether a hold is in force', async () => {
    const email = 'events@support.test';
    const token = await signUp(t, email, password);
    expect((await call<LoginData>('POST', '/api/login', { body: { email, password: 'wrong password 1234567' } })).code).not.toBe(0);
    expect((await call<LoginData>('POST', '/api/login', { body: { email, password } })).code).toBe(0);
    const me = (await call<CurrentUser>('GET', '/api/getCurrentUser', { token })).data;
    await openHold(me.uid, 'password_changed', 24);
    const events = (await detail(me.uid)).securityEvents;
    expect(events.map((e) => [e.type, e.code, e.active])).toEqual([
      ['hold', 'password_changed', true],
      ['sign_in', 'success', false],
      ['sign_in_failed', 'password_wrong', false],
      ['sign_in', 'success', false], // the sign-up's own
    ]);
    expect(events[1]?.ip).toMatch(/\d/);
    expect(Date.parse(events[0]!.endsAt!)).toBeGreaterThan(Date.now());
    // someone else's events never show
    expect((await detail(operator.uid)).securityEvents.some((e) => e.code === 'password_changed')).toBe(false);
  });

  it('a forced sign-out ends every live session at once, audited; 3007 when none is live', async () => {
    const email = 'stolen@support.test';
    const first = await signUp(t, email, password);
    const second = (await call<LoginData>('POST', '/api/login', { body: { email, password } })).data;
    const me = (await call<CurrentUser>('GET', '/api/getCurrentUser', { token: first })).data;
    expect((await detail(me.uid)).activeSessions).toBe(2);
    const done = await act(me.uid, 'sign-out', 'phone stolen, owner called');
    expect(done).toMatchObject({ code: 0, data: { uid: me.uid, activeSessions: 0 } });
    for (const token of [first, second.tokenHead + second.token]) {
      expect((await call('GET', '/api/getCurrentUser', { token })).code).toBe(2001);
    }
    expect(await actions('user.sign_out', me.uid)).toEqual([
      { actor: 'ops@support.test', reason: 'phone stolen, owner called', before: { activeSessions: 2 }, after: { activeSessions: 0 } },
    ]);
    expect((await act(me.uid, 'sign-out')).code).toBe(3007);
    // the owner can sign in again
    expect((await call<LoginData>('POST', '/api/login', { body: { email, password } })).code).toBe(0);
  });

  it('ending a hold lifts it (kept as history, marked not in force), audited; 3007 when none is in force', async () => {
    const u = await createUser(t);
    expect((await act(u.uid, 'holds/end')).code).toBe(3007);
    await openHold(u.uid, 'new_device', 24);
    const ended = await act(u.uid, 'holds/end', 'owner confirmed the new phone by video call');
    expect(ended.code).toBe(0);
    expect(ended.data.securityEvents.filter((e) => e.type === 'hold').map((e) => [e.code, e.active])).toEqual([['new_device', false]]);
    const [row] = await actions('user.hold.end', u.uid);
    expect(row).toMatchObject({ reason: 'owner confirmed the new phone by video call', after: { holds: [] } });
    expect((row!.before as { holds: { reason: string }[] }).holds.map((h) => h.reason)).toEqual(['new_device']);
    const [left] = await t.database.sql.query<{ n: number }>(
      `select count(*)::int as n from security_holds where user_id = $1 and cancelled_at is null and ends_at > now()`,
      [u.uid],
    );
    expect(left?.n).toBe(0);
  });

  it('refuses oneself, another operator (3007), an unknown uid (4004) and a bad reason (1001); nothing written', async () => {
    const u = await createUser(t);
    await openHold(u.uid, 'passkey_added', 24);
    for (const path of ['sign-out', 'holds/end'] as const) {
      expect((await act(operator.uid, path)).code).toBe(3007);
      expect((await act(otherOperator.uid, path)).code).toBe(3007);
      expect((await act(999999, path)).code).toBe(4004);
      for (const reason of ['', 'a\u0007b', 42, null]) expect((await act(u.uid, path, reason)).code, String(reason)).toBe(1001);
      expect((await call('POST', `/api/admin/users/${u.uid}/${path}`, { token: operator.token, body: {} })).code).toBe(1001);
    }
    expect((await detail(u.uid)).activeSessions).toBe(1);
    expect((await detail(u.uid)).securityEvents.filter((e) => e.active)).toHaveLength(1);
    const [audit] = await t.database.sql.query<{ n: number }>(
      `select count(*)::int as n from operator_actions where action in ('user.sign_out', 'user.hold.end') and target_id = $1`,
      [String(u.uid)],
    );
    expect(audit?.n).toBe(0);
  });
});
