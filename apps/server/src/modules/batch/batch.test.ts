import { BATCHABLE_GETS, type BatchAnswers } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';

describe('GET /api/batch', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    [alice, bob] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterAll(() => t.close());

  const batch = (paths: string, opts: { token?: string; lang?: 'en-US' | 'zh-CN' } = {}) =>
    call<BatchAnswers>('GET', `/api/batch?paths=${paths}`, opts);

  it('answers every batchable GET exactly as it answers alone, in the asked language', async () => {
    const res = await batch(BATCHABLE_GETS.join(','), { token: alice.token, lang: 'en-US' });
    expect(res).toMatchObject({ status: 200, code: 0, message: 'Success' });
    expect(Object.keys(res.data)).toEqual([...BATCHABLE_GETS]);
    for (const path of BATCHABLE_GETS) {
      const alone = await call('GET', `/api${path}`, { token: alice.token, lang: 'en-US' });
      const { status, ...body } = alone;
      expect(res.data[path], path).toEqual({ status, body });
      expect(body.code, path).toBe(0);
    }
  });

  it("carries the caller's session only: each user gets their own answers", async () => {
    const [a, b] = await Promise.all([batch('/getCurrentUser', { token: alice.token }), batch('/getCurrentUser', { token: bob.token })]);
    expect((a.data['/getCurrentUser']!.body as { data: { email: string } }).data.email).toBe(alice.email);
    expect((b.data['/getCurrentUser']!.body as { data: { email: string } }).data.email).toBe(bob.email);
  });

  it('refuses per path what needs a session when there is none, and answers the public ones', async () => {
    const res = await batch('/getCurrentUser,/currency/list,/currency/balances', { lang: 'en-US' });
    expect(res.code).toBe(0);
    const alone = await call('GET', '/api/getCurrentUser', { lang: 'en-US' });
    expect(alone.code).toBe(2001);
    const { status, ...body } = alone;
    expect(res.data['/getCurrentUser']).toEqual({ status, body });
    expect((res.data['/currency/balances']!.body as { code: number }).code).toBe(2001);
    expect((res.data['/currency/list']!.body as { code: number }).code).toBe(0);
    const expired = await batch('/getCurrentUser', { token: 'Bearer not-a-session' });
    expect((expired.data['/getCurrentUser']!.body as { code: number }).code).toBe(2001);
  });

  it('refuses a path outside the list, a repeated one, an empty list and control characters, in the asked language', async () => {
    for (const paths of [
      '/admin/user/list',
      '/deposit/createAddress',
      '/getCurrentUser,/getCurrentUser',
      '',
      '/getCurrentUser%00',
      '/getCurrentUser,,/configs',
      'x'.repeat(500),
    ]) {
      const res = await batch(paths, { token: alice.token, lang: 'en-US' });
      expect(res, paths).toMatchObject({ status: 200, code: 1001, data: null });
      expect(res.message, paths).toMatch(/paths/);
      expect(res.message, paths).not.toMatch(/[\u4e00-\u9fff]/);
    }
    const zh = await batch('/admin/user/list', { token: alice.token, lang: 'zh-CN' });
    expect(zh).toMatchObject({ status: 200, code: 1001, data: null });
    expect(zh.message).toMatch(/[\u4e00-\u9fff]/);
    expect(zh.message).toMatch(/paths/);
    const missing = await call('GET', '/api/batch', { lang: 'zh-CN' });
    expect(missing).toMatchObject({ code: 1001, data: null });
  });
});
