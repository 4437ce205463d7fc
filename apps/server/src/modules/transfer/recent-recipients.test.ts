import type { RecentRecipient } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

describe('GET /api/transfer/recentRecipients', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let usdt: number;
  let key = 0;

  const send = (from: TestUser, to: TestUser, amount = '1') =>
    call('POST', '/api/transfer/transferByUID', {
      token: from.token,
      body: { uid: to.uid, currencyId: usdt, amount },
      key: `recent-${++key}`,
    });
  const recent = (u: TestUser | null, lang?: string) =>
    call<RecentRecipient[]>('GET', '/api/transfer/recentRecipients', { ...(u ? { token: u.token } : {}), ...(lang ? { lang } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    alice = await createUser(t, { email: 'alice@example.com', nickname: 'Alice' });
    bob = await createUser(t, { email: 'bob@example.com', nickname: 'Bob', avatar: 'preset:3' });
    carol = await createUser(t, { email: 'carol@example.com', nickname: 'Carol' });
    dave = await createUser(t, { email: 'dave@example.com', nickname: 'Dave' });
    const list = await call<{ id: number; code: string }[]>('GET', '/api/currency/list');
    usdt = list.data.find((c) => c.code === 'USDT')!.id;
    await fund(t, alice.uid, 'USDT', '100');
    await fund(t, dave.uid, 'USDT', '100');
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the people the user sent to, latest first, once each, e-mails masked', async () => {
    for (const to of [bob, carol, bob]) expect((await send(alice, to)).code).toBe(0);
    const answer = await recent(alice);
    expect(answer.code).toBe(0);
    expect(answer.data.map((r) => r.uid)).toEqual([bob.uid, carol.uid]);
    expect(answer.data[0]).toMatchObject({ nickname: 'Bob', avatar: 'preset:3' });
    expect(answer.data[0]!.maskedEmail).not.toContain('bob@example.com');
    expect(Date.parse(answer.data[0]!.lastSentAt)).toBeGreaterThanOrEqual(Date.parse(answer.data[1]!.lastSentAt));
  });

  it("never shows another user's recipients, nor the people who sent to the caller", async () => {
    expect((await send(dave, carol)).code).toBe(0);
    // Bob and Carol only received: nothing to list.
    expect((await recent(bob)).data).toEqual([]);
    expect((await recent(carol)).data).toEqual([]);
    // Dave sees his own recipient only, not Alice's.
    expect((await recent(dave)).data.map((r) => r.uid)).toEqual([carol.uid]);
  });

  it('keeps to the limit', async () => {
    const many = await Promise.all(Array.from({ length: 6 }, (_, i) => createUser(t, { email: `many${i}@example.com` })));
    for (const to of many) expect((await send(dave, to)).code).toBe(0);
    const answer = await recent(dave);
    expect(answer.data).toHaveLength(5);
    expect(answer.data[0]!.uid).toBe(many[5]!.uid);
  });

  it('answers 2001 without a session, in the asked language', async () => {
    const zh = await recent(null, 'zh-CN');
    const en = await recent(null, 'en-US');
    expect([zh.code, en.code]).toEqual([2001, 2001]);
    expect(zh.message).not.toBe(en.message);
  });
});
