import type { AdminHelpArticle, AdminHelpTopic, AdminHelpTree, HelpArticle, HelpList } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { auditRows, CONTROL_TEXTS, countRows } from './test-support.ts';

describe('help', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    operator = await createUser(t, { email: 'ops@coffer.test', role: 'operator' });
    user = await createUser(t, { email: 'reader@coffer.test' });
  });
  afterAll(() => t.close());

  const list = (q?: string, lang = 'en-US') =>
    call<HelpList>('GET', `/api/help/list${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`, { lang });
  const titles = (res: { data: HelpList }) => res.data.topics.flatMap((topic) => topic.articles.map((a) => a.title));
  const admin = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => call<T>(method, url, { token: operator.token, body });

  it('ships starter articles in both languages, grouped by topic, rendering safely', async () => {
    const en = await list();
    const zh = await list(undefined, 'zh-CN');
    expect(en.data.topics.map((topic) => topic.key)).toEqual(['account', 'security', 'deposit-withdraw', 'transfer-swap', 'bills-fees']);
    expect(zh.data.topics[0]!.title).toBe('注册与登录');
    expect(titles(en).length).toBeGreaterThanOrEqual(10);
    expect(titles(en)).toContain('Passkeys');
    expect(titles(zh)).toContain('如何提现');
    const tree = (await admin<AdminHelpTree>('GET', '/api/admin/help')).data;
    for (const topic of tree.topics) {
      for (const a of topic.articles) {
        const article = (await admin<AdminHelpArticle>('GET', `/api/admin/help/articles/${a.id}`)).data;
        expect(article.bodyZh.length, a.titleEn).toBeGreaterThan(100);
        expect(article.bodyEn.length, a.titleEn).toBeGreaterThan(100);
        // Seeded links point into the app and stay links.
        expect(article.htmlEn).not.toContain('](/');
        expect(article.htmlZh).not.toContain('](/');
      }
    }
    const withdraw = en.data.topics[2]!.articles[1]!;
    const detail = await call<HelpArticle>('GET', `/api/help/${withdraw.id}`, { lang: 'en-US' });
    expect(detail.data).toMatchObject({
      id: withdraw.id,
      topicKey: 'deposit-withdraw',
      topicTitle: 'Deposits and withdrawals',
      title: 'How do I withdraw?',
    });
    expect(detail.data.html).toContain('<a href="/withdraw">Withdraw</a>');
    expect((await call('GET', '/api/help/987654')).code).toBe(4004);
  });

  it('searches titles in the asked language, case-insensitively, with % and _ taken literally', async () => {
    expect(titles(await list('PASSKEY'))).toEqual(['Passkeys']);
    expect(titles(await list('提现', 'zh-CN'))).toEqual(['如何提现', '提现审核、每日限额与撤销']);
    expect(titles(await list('提现', 'en-US'))).toEqual([]);
    const topicId = (await admin<AdminHelpTree>('GET', '/api/admin/help')).data.topics[0]!.id;
    await admin('POST', '/api/admin/help/articles/create', {
      topicId,
      titleZh: '100% 安全_模式',
      titleEn: '100% safe_mode',
      bodyZh: '正文',
      bodyEn: 'Body',
    });
    expect(titles(await list('%'))).toEqual(['100% safe_mode']);
    expect(titles(await list('_'))).toEqual(['100% safe_mode']);
    expect(titles(await list('0%'))).toEqual(['100% safe_mode']);
    expect(titles(await list('e_m'))).toEqual(['100% safe_mode']);
    expect(titles(await list('s%e'))).toEqual([]);
    expect(titles(await list('\\'))).toEqual([]);
    expect((await list('')).data.topics).toHaveLength(5);
    expect((await list('no such words')).data.topics).toEqual([]);
    for (const q of ['x'.repeat(51), 'a\u0000', 'bidi\u202e']) expect((await list(q)).code).toBe(1001);
  });

  it('refuses admin paths to signed-out callers (2001) and non-operators (403)', async () => {
    const topic = { key: 'x', titleZh: 'x', titleEn: 'x' };
    const article = { topicId: 1, titleZh: 'x', titleEn: 'x', bodyZh: 'x', bodyEn: 'x' };
    const paths: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/admin/help'],
      ['GET', '/api/admin/help/articles/1'],
      ['POST', '/api/admin/help/topics/create', topic],
      ['POST', '/api/admin/help/topics/1/update', topic],
      ['POST', '/api/admin/help/topics/1/delete', {}],
      ['POST', '/api/admin/help/articles/create', article],
      ['POST', '/api/admin/help/articles/1/update', article],
      ['POST', '/api/admin/help/articles/1/delete', {}],
    ];
    const before = await countRows(t, 'help_articles');
    for (const [method, url, body] of paths) {
      expect(await call(method, url, { body }), url).toMatchObject({ status: 200, code: 2001 });
      expect(await call(method, url, { body, token: user.token }), url).toMatchObject({ status: 403, code: 4003 });
    }
    expect(await countRows(t, 'help_articles')).toBe(before);
  });

  it('creates, updates and deletes topics and articles, each audited once with before and after', async () => {
    const topic = (
      await admin<AdminHelpTopic>('POST', '/api/admin/help/topics/create', { key: 'cards', titleZh: '卡', titleEn: 'Cards', sortOrder: 60 })
    ).data;
    expect(topic).toMatchObject({ key: 'cards', titleEn: 'Cards', sortOrder: 60 });
    const renamed = await admin<AdminHelpTopic>('POST', `/api/admin/help/topics/${topic.id}/update`, {
      key: 'cards',
      titleZh: '银行卡',
      titleEn: 'Bank cards',
      sortOrder: 5,
    });
    expect(renamed.data.titleEn).toBe('Bank cards');
    expect((await list()).data.topics.map((x) => x.key)).not.toContain('cards');

    const body = {
      topicId: topic.id,
      titleZh: '绑定银行卡',
      titleEn: 'Adding a card',
      bodyZh: '暂不支持。',
      bodyEn: 'Not yet **supported**.',
    };
    const article = (await admin<AdminHelpArticle>('POST', '/api/admin/help/articles/create', body)).data;
    expect(article).toMatchObject({ topicId: topic.id, htmlEn: '<p>Not yet <strong>supported</strong>.</p>\n' });
    expect((await list()).data.topics[0]).toMatchObject({
      key: 'cards',
      title: 'Bank cards',
      articles: [{ id: article.id, title: 'Adding a card' }],
    });
    const updated = await admin<AdminHelpArticle>('POST', `/api/admin/help/articles/${article.id}/update`, { ...body, titleEn: 'Cards' });
    expect(updated.data.titleEn).toBe('Cards');
    expect((await admin('POST', `/api/admin/help/topics/${topic.id}/delete`, {})).code).toBe(3007);
    expect((await admin('POST', `/api/admin/help/articles/${article.id}/delete`, { reason: 'not offered' })).data).toEqual({
      id: article.id,
    });
    expect((await call('GET', `/api/help/${article.id}`)).code).toBe(4004);
    expect((await admin('POST', `/api/admin/help/topics/${topic.id}/delete`)).data).toEqual({ id: topic.id });

    const checks: [string, number, boolean, boolean][] = [
      ['help.topic.create', topic.id, false, true],
      ['help.topic.update', topic.id, true, true],
      ['help.topic.delete', topic.id, true, false],
      ['help.article.create', article.id, false, true],
      ['help.article.update', article.id, true, true],
      ['help.article.delete', article.id, true, false],
    ];
    for (const [action, id, hasBefore, hasAfter] of checks) {
      const rows = await auditRows(t, action, id);
      expect(rows, action).toHaveLength(1);
      expect(rows[0]!.actor_user_id).toBe(operator.uid);
      expect(rows[0]!.before !== null, action).toBe(hasBefore);
      expect(rows[0]!.after !== null, action).toBe(hasAfter);
    }
    expect((await auditRows(t, 'help.topic.update', topic.id))[0]).toMatchObject({
      before: { titleEn: 'Cards' },
      after: { titleEn: 'Bank cards' },
    });
    expect((await auditRows(t, 'help.article.delete', article.id))[0]).toMatchObject({
      reason: 'not offered',
      before: { titleEn: 'Cards' },
    });
  });

  it('refuses bad input and unknown ids, writing nothing', async () => {
    const before = [await countRows(t, 'help_topics'), await countRows(t, 'help_articles'), await countRows(t, 'operator_actions')];
    const topicId = (await admin<AdminHelpTree>('GET', '/api/admin/help')).data.topics[0]!.id;
    const good = { topicId, titleZh: '标题', titleEn: 'Title', bodyZh: '正文', bodyEn: 'Body' };
    for (const over of [
      ...CONTROL_TEXTS.map((text) => ({ titleEn: text })),
      { bodyZh: 'tab\tinside' },
      { titleZh: 'x'.repeat(101) },
      { bodyEn: 'x'.repeat(20_001) },
      { topicId: String(topicId) },
      { sortOrder: -1 },
    ]) {
      expect((await admin('POST', '/api/admin/help/articles/create', { ...good, ...over })).code, JSON.stringify(over).slice(0, 60)).toBe(
        1001,
      );
    }
    expect((await admin('POST', '/api/admin/help/articles/create', { ...good, topicId: 987654 })).code).toBe(4004);
    expect((await admin('POST', '/api/admin/help/articles/987654/update', good)).code).toBe(4004);
    expect((await admin('POST', '/api/admin/help/articles/987654/delete', {})).code).toBe(4004);
    const topic = { key: 'account', titleZh: '账户', titleEn: 'Account' };
    expect((await admin('POST', '/api/admin/help/topics/create', topic)).code).toBe(1001);
    expect((await admin('POST', '/api/admin/help/topics/create', { ...topic, key: 'Bad Key' })).code).toBe(1001);
    expect((await admin('POST', '/api/admin/help/topics/create', { ...topic, key: 'fresh', titleEn: 'a\u202e' })).code).toBe(1001);
    expect((await admin('POST', '/api/admin/help/topics/987654/update', { ...topic, key: 'fresh' })).code).toBe(4004);
    expect((await admin('POST', '/api/admin/help/topics/987654/delete', {})).code).toBe(4004);
    expect([await countRows(t, 'help_topics'), await countRows(t, 'help_articles'), await countRows(t, 'operator_actions')]).toEqual(
      before,
    );
  });
});
