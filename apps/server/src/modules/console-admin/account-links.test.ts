import type { AdminUserDetail, OperatorActionRecord } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { createActivity } from '../activities/test-support.ts';

describe('linked accounts', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let other: TestUser;
  let USDT: number;
  const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.database.sql.query<T>(text, params);

  const newUser = async () => {
    const u = await createUser(t);
    await fund(t, u.uid, 'USDT', '1000');
    return u;
  };
  const link = (uid: number, body: unknown, token = operator.token) =>
    call<AdminUserDetail>('POST', `/api/admin/users/${uid}/links`, { token, body });
  const unlink = (uid: number, id: number, reason: string, token = operator.token) =>
    call<AdminUserDetail>('POST', `/api/admin/users/${uid}/links/${id}/remove`, { token, body: { reason } });
  const send = (from: TestUser, to: TestUser) =>
    q(`select * from coffer_transfer_apply($1, $2, null, null, $3, 1, null, 'uid', null, null, null, null)`, [from.uid, to.uid, USDT]);
  const score = async (activity: number, u: TestUser) =>
    (await q<{ s: string }>('select coffer_activity_user_score($1, $2)::text as s', [activity, u.uid]))[0]?.s;
  const rankedScore = async (activity: number, u: TestUser) =>
    (await q<{ score: string }>('select score::text from coffer_activity_ranking($1) where user_id = $2', [activity, u.uid]))[0]?.score ??
    null;
  const trail = async (action: string) =>
    (await call<{ list: OperatorActionRecord[] }>('GET', `/api/admin/audit-trail?action=${action}`, { token: operator.token })).data.list;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    operator = await createUser(t, { role: 'operator' });
    other = await createUser(t, { role: 'operator' });
    const [usdt] = await q<{ id: number }>(`select id from currencies where code = 'USDT'`);
    USDT = Number(usdt?.id);
  });
  afterAll(() => t.close());

  it('transfers between linked accounts stop counting; unlinked ones still do; removing the link counts them again', async () => {
    const farmer = await newUser();
    const spouse = await newUser();
    const stranger = await newUser();
    const a = await createActivity(t, operator, {
      metric: 'transfers_sent',
      metricCurrency: 'USDT',
      minTransfer: '1',
      prizes: [{ rankFrom: 1, rankTo: 1, amount: '5' }],
    });
    await send(farmer, spouse);
    await send(farmer, stranger);
    await send(spouse, farmer);
    expect(await score(a.id, farmer)).toBe('2');
    expect(await rankedScore(a.id, farmer)).toBe('2');

    const linked = await link(spouse.uid, { uid: farmer.uid, reason: 'same household (shared address)' });
    expect(linked.code).toBe(0);
    expect(linked.data.links).toEqual([
      expect.objectContaining({
        uid: farmer.uid,
        email: farmer.email,
        reason: 'same household (shared address)',
        createdBy: operator.email,
      }),
    ]);
    // Both directions: the pair is one link, whichever page made it.
    expect(await score(a.id, farmer)).toBe('1');
    expect(await rankedScore(a.id, farmer)).toBe('1');
    expect(await score(a.id, spouse)).toBe('0');
    expect(await rankedScore(a.id, spouse)).toBeNull();
    expect(await score(a.id, stranger)).toBe('0');

    const detail = await call<AdminUserDetail>('GET', `/api/admin/users/${farmer.uid}`, { token: operator.token });
    expect(detail.data.links.map((l) => [l.uid, l.email])).toEqual([[spouse.uid, spouse.email]]);
    const linkId = detail.data.links[0]!.id;

    const [made] = await trail('user.link');
    expect(made).toMatchObject({
      actor: operator.email,
      targetType: 'user',
      targetId: String(spouse.uid),
      reason: 'same household (shared address)',
    });
    expect(made?.after).toEqual({ link: linkId, users: [Math.min(farmer.uid, spouse.uid), Math.max(farmer.uid, spouse.uid)] });

    // Removed from the other side's page, by another operator.
    const removed = await unlink(farmer.uid, linkId, 'different people after all', other.token);
    expect(removed.code).toBe(0);
    expect(removed.data.links).toEqual([]);
    expect(await score(a.id, farmer)).toBe('2');
    const [gone] = await trail('user.unlink');
    expect(gone).toMatchObject({ actor: other.email, targetId: String(farmer.uid), reason: 'different people after all', after: null });
    const [row] = await q<{ removed_by: number; removed_reason: string }>(
      'select removed_by, removed_reason from account_links where id = $1',
      [linkId],
    );
    expect([Number(row?.removed_by), row?.removed_reason]).toEqual([other.uid, 'different people after all']);

    // A removed link can be made again (a new row); removing the old one again is 3055.
    expect((await link(farmer.uid, { uid: spouse.uid, reason: 'checked again: one person' })).code).toBe(0);
    expect(await score(a.id, farmer)).toBe('1');
    expect((await unlink(farmer.uid, linkId, 'again')).code).toBe(3055);
  });

  it('refuses a self link, a second link of the same pair, unknown uids, operator accounts and bad reasons, writing nothing', async () => {
    const u = await newUser();
    const v = await newUser();
    const before = (await q<{ n: number }>('select count(*)::int as n from account_links'))[0]?.n;
    const auditBefore = (await q<{ n: number }>('select count(*)::int as n from operator_actions'))[0]?.n;
    expect((await link(u.uid, { uid: u.uid, reason: 'me' })).code).toBe(3054);
    expect((await link(u.uid, { uid: 999_999, reason: 'who' })).code).toBe(4004);
    expect((await link(999_999, { uid: u.uid, reason: 'who' })).code).toBe(4004);
    expect((await link(u.uid, { uid: other.uid, reason: 'an operator' })).code).toBe(3007);
    expect((await link(operator.uid, { uid: u.uid, reason: 'myself' })).code).toBe(3007);
    expect((await link(u.uid, { uid: v.uid, reason: '' })).code).toBe(1001);
    expect((await link(u.uid, { uid: v.uid, reason: 'bad\u0007bell' })).code).toBe(1001);
    expect((await link(u.uid, { uid: '2', reason: 'string uid' })).code).toBe(1001);
    expect((await link(u.uid, { uid: v.uid })).code).toBe(1001);
    expect((await q<{ n: number }>('select count(*)::int as n from account_links'))[0]?.n).toBe(before);
    expect((await q<{ n: number }>('select count(*)::int as n from operator_actions'))[0]?.n).toBe(auditBefore);

    expect((await link(u.uid, { uid: v.uid, reason: 'same phone' })).code).toBe(0);
    const again = await call('POST', `/api/admin/users/${v.uid}/links`, {
      token: other.token,
      lang: 'en-US',
      body: { uid: u.uid, reason: 'same phone' },
    });
    expect(again.code).toBe(3053);
    expect(again.message).toBe('These two accounts are linked already');
    const zh = await call('POST', `/api/admin/users/${v.uid}/links`, {
      token: operator.token,
      lang: 'zh-CN',
      body: { uid: u.uid, reason: 'x' },
    });
    expect(zh.message).toBe('这两个账户已经关联');
    // A link id that is not this user's is not found, and nothing is removed.
    const [{ id } = { id: 0 }] = await q<{ id: number }>('select id from account_links where user_low = $1 and removed_at is null', [
      Math.min(u.uid, v.uid),
    ]);
    const third = await newUser();
    expect((await unlink(third.uid, Number(id), 'not theirs')).code).toBe(4004);
    expect((await unlink(u.uid, 999_999, 'no such link')).code).toBe(4004);
    expect((await unlink(u.uid, Number(id), '')).code).toBe(1001);
    expect((await call<AdminUserDetail>('GET', `/api/admin/users/${u.uid}`, { token: operator.token })).data.links).toHaveLength(1);
  });

  it('the database holds the rules whatever the code does: ordered pair, no self link, one live link per pair', async () => {
    const u = await newUser();
    const v = await newUser();
    const [low, high] = u.uid < v.uid ? [u.uid, v.uid] : [v.uid, u.uid];
    const insert = (a: number, b: number) =>
      q('insert into account_links (user_low, user_high, reason, created_by) values ($1, $2, $3, $4)', [a, b, 'x', operator.uid]);
    await expect(insert(low, low)).rejects.toThrow(/account_links_ordered_check/);
    await expect(insert(high, low)).rejects.toThrow(/account_links_ordered_check/);
    await insert(low, high);
    await expect(insert(low, high)).rejects.toThrow(/account_links_live_pair/);
    await expect(q('update account_links set removed_at = now() where user_low = $1 and user_high = $2', [low, high])).rejects.toThrow(
      /account_links_removed_check/,
    );
  });

  it('refuses a user who is not an operator, and a signed-out caller', async () => {
    const u = await newUser();
    const v = await newUser();
    const asUser = await call('POST', `/api/admin/users/${v.uid}/links`, { token: u.token, body: { uid: u.uid, reason: 'mine' } });
    expect(asUser).toMatchObject({ status: 403, code: 4003 });
    const signedOut = await call('POST', `/api/admin/users/${v.uid}/links`, { body: { uid: u.uid, reason: 'mine' } });
    expect(signedOut.code).toBe(2001);
    expect((await q<{ n: number }>('select count(*)::int as n from account_links where $1 in (user_low, user_high)', [u.uid]))[0]?.n).toBe(
      0,
    );
  });
});
