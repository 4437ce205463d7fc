import type { AdminNotice, AdminNoticePage, NoticeDetail, NoticePage } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { auditRows, CONTROL_TEXTS, countRows, fromNow, HOUR_MS } from './test-support.ts';

describe('notices', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let publicId: number;
  let aliceId: number;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    operator = await createUser(t, { email: 'ops@coffer.test', role: 'operator' });
    alice = await createUser(t, { email: 'alice@coffer.test' });
    bob = await createUser(t, { email: 'bob@coffer.test' });
  });
  afterAll(() => t.close());

  const notice = (over: Record<string, unknown> = {}) => ({
    titleZh: '系统维护',
    titleEn: 'Maintenance',
    bodyZh: '今晚 **22:00** 维护',
    bodyEn: 'Maintenance at **22:00** tonight',
    ...over,
  });
  const create = (over: Record<string, unknown> = {}) =>
    call<AdminNotice>('POST', '/api/admin/notices/create', { token: operator.token, body: notice(over) });
  const list = (token?: string, query = '') => call<NoticePage>('GET', `/api/notice/list${query}`, { token, lang: 'en-US' });
  const unread = async (token: string) =>
    (await call<{ unreadCount: number }>('GET', '/api/notice/unread-count', { token })).data.unreadCount;

  it('refuses admin paths to signed-out callers (2001) and non-operators (403); read-all and unread-count need a session', async () => {
    const paths: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/admin/notices'],
      ['GET', '/api/admin/notices/1'],
      ['POST', '/api/admin/notices/create', notice()],
      ['POST', '/api/admin/notices/1/retire', {}],
    ];
    for (const [method, url, body] of paths) {
      expect(await call(method, url, { body }), url).toMatchObject({ status: 200, code: 2001 });
      expect(await call(method, url, { body, token: alice.token }), url).toMatchObject({ status: 403, code: 4003 });
    }
    expect((await call('POST', '/api/notice/read-all')).code).toBe(2001);
    expect((await call('GET', '/api/notice/unread-count')).code).toBe(2001);
    expect((await call('GET', '/api/notice/unread-count', { token: 'Bearer not-a-session' })).code).toBe(2001);
    expect(await auditRows(t, 'notice.create')).toEqual([]);
    expect(await auditRows(t, 'notice.retire')).toEqual([]);
  });

  it('publishes public and personal notices, audited; signed out sees public ones only', async () => {
    const pub = await create();
    expect(pub).toMatchObject({ code: 0, data: { uid: null, kind: 'general', state: 'published' } });
    publicId = pub.data.id;
    const mine = await create({ uid: alice.uid, kind: 'account', titleEn: 'For Alice', titleZh: '给 Alice' });
    expect(mine.data).toMatchObject({ uid: alice.uid, kind: 'account' });
    aliceId = mine.data.id;
    for (const id of [publicId, aliceId]) {
      const [row, ...more] = await auditRows(t, 'notice.create', id);
      expect(more).toEqual([]);
      expect(row).toMatchObject({ actor_user_id: operator.uid, target_type: 'notice', before: null, after: { id } });
    }

    const anonymous = await list();
    expect(anonymous.data).toEqual({
      list: [{ id: publicId, kind: 'general', title: 'Maintenance', publishedAt: pub.data.publishedAt, personal: false }],
      total: 1,
      page: 1,
      pageSize: 20,
    });
    // A bad or expired token on this public path answers as signed out, not 2001.
    expect((await list('Bearer not-a-session')).data).toEqual(anonymous.data);

    const forAlice = await list(alice.token);
    expect(forAlice.data.unreadCount).toBe(2);
    expect(forAlice.data.list.map((n) => [n.id, n.personal, n.read])).toEqual([
      [aliceId, true, false],
      [publicId, false, false],
    ]);
    expect((await list(bob.token)).data.list.map((n) => n.id)).toEqual([publicId]);
  });

  it("keeps another user's notice from them (4004) and marks read on opening", async () => {
    expect((await call('GET', `/api/notice/${aliceId}`, { token: bob.token })).code).toBe(4004);
    expect((await call('GET', `/api/notice/${aliceId}`)).code).toBe(4004);
    expect((await call('GET', '/api/notice/987654', { token: alice.token })).code).toBe(4004);

    const anonymous = await call<NoticeDetail>('GET', `/api/notice/${publicId}`);
    expect(anonymous.data).toMatchObject({ id: publicId, title: '系统维护', html: '<p>今晚 <strong>22:00</strong> 维护</p>\n' });
    expect(anonymous.data.read).toBeUndefined();

    expect(await unread(alice.token)).toBe(2);
    const opened = await call<NoticeDetail>('GET', `/api/notice/${aliceId}`, { token: alice.token, lang: 'en-US' });
    expect(opened.data).toMatchObject({ id: aliceId, title: 'For Alice', personal: true, read: true });
    expect(await unread(alice.token)).toBe(1);
    await call('GET', `/api/notice/${aliceId}`, { token: alice.token });
    expect(await unread(alice.token)).toBe(1);
    expect((await list(alice.token)).data.list.find((n) => n.id === aliceId)!.read).toBe(true);
    expect(await unread(bob.token)).toBe(1);
  });

  it('marks everything read at once; new notices are unread again', async () => {
    const res = await call<{ marked: number }>('POST', '/api/notice/read-all', { token: alice.token });
    expect(res.data).toEqual({ marked: 1 });
    expect(await unread(alice.token)).toBe(0);
    expect((await call<{ marked: number }>('POST', '/api/notice/read-all', { token: alice.token })).data.marked).toBe(0);
    await create({ titleEn: 'Another' });
    expect(await unread(alice.token)).toBe(1);
    expect((await list(alice.token)).data.unreadCount).toBe(1);
  });

  it('hides scheduled and retired notices from readers; retiring is audited once', async () => {
    const later = (await create({ publishedAt: fromNow(HOUR_MS) })).data;
    expect(later.state).toBe('scheduled');
    const gone = (await create({ titleEn: 'Gone soon' })).data;
    const retired = await call<AdminNotice>('POST', `/api/admin/notices/${gone.id}/retire`, {
      token: operator.token,
      body: { reason: 'typo' },
    });
    expect(retired.data.state).toBe('retired');
    for (const hidden of [later, gone]) {
      expect((await list(alice.token)).data.list.map((n) => n.id)).not.toContain(hidden.id);
      expect((await call('GET', `/api/notice/${hidden.id}`, { token: alice.token })).code).toBe(4004);
    }
    const [audit, ...more] = await auditRows(t, 'notice.retire', gone.id);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ reason: 'typo', before: { retiredAt: null, state: 'published' }, after: { state: 'retired' } });
    expect((await call('POST', `/api/admin/notices/${gone.id}/retire`, { token: operator.token })).code).toBe(3007);
    expect((await call('POST', '/api/admin/notices/987654/retire', { token: operator.token })).code).toBe(4004);
  });

  it('pages: page and pageSize as query strings, at most 100', async () => {
    const page = await list(alice.token, '?page=2&pageSize=1');
    expect(page.data).toMatchObject({ page: 2, pageSize: 1, total: 3 });
    expect(page.data.list).toHaveLength(1);
    for (const query of ['?page=0', '?pageSize=101', '?page=1.5', '?page=abc', '?pageSize=-1']) {
      expect((await list(alice.token, query)).code, query).toBe(1001);
    }
  });

  it('refuses bad input and writes nothing', async () => {
    const before = [await countRows(t, 'notices'), await countRows(t, 'operator_actions')];
    const bad: Record<string, unknown>[] = [
      ...CONTROL_TEXTS.map((text) => ({ titleZh: text })),
      { titleEn: 'x'.repeat(101) },
      { bodyEn: 'x'.repeat(20_001) },
      { bodyZh: 'tab\there' },
      { kind: 'Bad Kind' },
      { uid: String(alice.uid) },
      { uid: 0 },
      { publishedAt: 'soon' },
    ];
    for (const over of bad) expect((await create(over)).code, JSON.stringify(over).slice(0, 60)).toBe(1001);
    expect((await create({ uid: 987654 })).code).toBe(3004);
    expect([await countRows(t, 'notices'), await countRows(t, 'operator_actions')]).toEqual(before);
  });

  it('lists every notice for operators, with Markdown source and filters', async () => {
    const all = await call<AdminNoticePage>('GET', '/api/admin/notices?pageSize=100', { token: operator.token });
    expect(all.data.total).toBe(await countRows(t, 'notices'));
    const personal = await call<AdminNoticePage>(`GET`, `/api/admin/notices?scope=personal`, { token: operator.token });
    expect(personal.data.list.map((n) => n.id)).toEqual([aliceId]);
    const byUser = await call<AdminNoticePage>('GET', `/api/admin/notices?uid=${alice.uid}`, { token: operator.token });
    expect(byUser.data).toMatchObject({ total: 1, list: [{ id: aliceId, bodyEn: 'Maintenance at **22:00** tonight' }] });
    const one = await call<AdminNotice>('GET', `/api/admin/notices/${aliceId}`, { token: operator.token });
    expect(one.data.htmlEn).toBe('<p>Maintenance at <strong>22:00</strong> tonight</p>\n');
    expect((await call('GET', '/api/admin/notices/987654', { token: operator.token })).code).toBe(4004);
    expect((await call('GET', '/api/admin/notices?scope=mine', { token: operator.token })).code).toBe(1001);
  });

  it('coffer_notice_to_user sends one notice per dedupe key, inside the caller’s transaction', async () => {
    const send = (key: string | null) =>
      inTransaction(t.database, async (q) => {
        const [row] = await q<{ id: number }>(
          "SELECT coffer_notice_to_user($1, 'activity_prize', '获奖', 'You won', '奖励 **10 USDT**', 'Prize **10 USDT**', $2) AS id",
          [bob.uid, key],
        );
        return Number(row!.id);
      });
    const first = await send('activity:1:prize:1');
    expect(await send('activity:1:prize:1')).toBe(first);
    expect(await send(null)).not.toBe(first);
    const rolledBack = inTransaction(t.database, async (q) => {
      await q("SELECT coffer_notice_to_user($1, 'activity_prize', 'a', 'b', '', '', 'activity:1:prize:2')", [bob.uid]);
      throw new Error('payout failed');
    });
    await expect(rolledBack).rejects.toThrow('payout failed');
    expect(await countRows(t, "notices WHERE dedupe_key = 'activity:1:prize:2'")).toBe(0);
    const detail = await call<NoticeDetail>('GET', `/api/notice/${first}`, { token: bob.token, lang: 'en-US' });
    expect(detail.data).toMatchObject({
      kind: 'activity_prize',
      title: 'You won',
      personal: true,
      html: '<p>Prize <strong>10 USDT</strong></p>\n',
    });
    expect((await call('GET', `/api/notice/${first}`, { token: alice.token })).code).toBe(4004);
  });
});
