import type { AdjustResult, AuditReport, Balance } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';

describe('operator ledger tools', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let user: TestUser;
  let usdt: number;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    operator = await createUser(t, { email: 'ops@coffer.test', role: 'operator' });
    user = await createUser(t, { email: 'funded@coffer.test' });
    const list = await call<{ id: number; code: string }[]>('GET', '/api/currency/list');
    usdt = list.data.find((c) => c.code === 'USDT')!.id;
  });
  afterAll(() => t.close());

  const adjust = (body: Record<string, unknown>, opts: { key?: string; lang?: string; token?: string } = {}) =>
    call<AdjustResult>('POST', '/api/admin/ledger/adjust', { token: operator.token, body, ...opts });
  const available = async () => (await call<Balance>('GET', `/api/currency/balance/${usdt}`, { token: user.token })).data.available;

  it('refuses non-operators with HTTP 403 and anonymous callers with 2001', async () => {
    const body = { email: user.email, currency: 'USDT', amount: '1', reason: 'x' };
    const asUser = await call('POST', '/api/admin/ledger/adjust', { token: user.token, body });
    expect(asUser).toMatchObject({ status: 403, code: 4003, data: null });
    expect((await call('GET', '/api/admin/ledger/audit', { token: user.token, lang: 'en-US' })).message).toBe('Forbidden');
    expect(await call('POST', '/api/admin/ledger/adjust', { body })).toMatchObject({ code: 2001 });
    expect((await call('GET', '/api/admin/ledger/audit')).code).toBe(2001);
  });

  it('credits and debits against the adjustments account, recording who and why', async () => {
    const credit = await adjust({ email: 'FUNDED@coffer.test', currency: 'usdt', amount: '100.25', reason: 'welcome bonus' });
    expect(credit).toMatchObject({
      code: 0,
      data: { uid: user.uid, currencyId: usdt, code: 'USDT', amount: '100.25', balanceAfter: '100.25', replayed: false },
    });
    const debit = await adjust({ uid: user.uid, currency: usdt, amount: '0.25', direction: 'debit', reason: 'correction' });
    expect(debit.data).toMatchObject({ amount: '-0.25', balanceAfter: '100' });
    expect(await available()).toBe('100');
    const rows = await t.database.sql.query<{ amount: string; reason: string; actor: string; actor_user_id: number }>(
      'select amount, reason, actor, actor_user_id from adjustments order by id',
    );
    expect(rows.map((r) => [r.reason, r.actor, Number(r.actor_user_id)])).toEqual([
      ['welcome bonus', 'ops@coffer.test', operator.uid],
      ['correction', 'ops@coffer.test', operator.uid],
    ]);
    const adj = await t.database.sql.query<{ balance: string }>(
      `select balance from accounts where user_id is null and kind = 'adjustments' and currency_id = $1`,
      [usdt],
    );
    expect(adj[0]!.balance).toBe('-100.000000000000000000');
  });

  it('answers business errors: 3001, 3002, 3003, 3004, 1001', async () => {
    expect((await adjust({ uid: user.uid, currency: 'USDT', amount: '100.000001', direction: 'debit', reason: 'x' })).code).toBe(3001);
    expect((await adjust({ uid: user.uid, currency: 'USDT', amount: '0.0000001', reason: 'x' })).code).toBe(3002);
    expect((await adjust({ uid: user.uid, currency: 'USDT', amount: '0', reason: 'x' })).code).toBe(3002);
    expect((await adjust({ uid: user.uid, currency: 'DOGE', amount: '1', reason: 'x' })).code).toBe(3003);
    expect((await adjust({ uid: user.uid, currency: 999, amount: '1', reason: 'x' })).code).toBe(3003);
    expect((await adjust({ email: 'ghost@coffer.test', currency: 'USDT', amount: '1', reason: 'x' })).code).toBe(3004);
    expect((await adjust({ uid: 987654, currency: 'USDT', amount: '1', reason: 'x' })).code).toBe(3004);
    expect((await adjust({ uid: user.uid, currency: 'USDT', amount: '1' })).code).toBe(1001);
    expect((await adjust({ uid: user.uid, currency: 'USDT', amount: '1', reason: '   ' })).code).toBe(1001);
    expect((await adjust({ uid: user.uid, email: user.email, currency: 'USDT', amount: '1', reason: 'x' })).code).toBe(1001);
    expect((await adjust({ uid: user.uid, currency: 'USDT', amount: '-1', reason: 'x' })).code).toBe(1001);
    // Control, bidirectional and invisible characters in the reason (a NUL answered 500 before); ids are JSON integers.
    for (const reason of ['nul\u0000', 'bidi \u202e', 'zero\u200bwidth', 'tab\there', 'c1\u009b']) {
      const res = await adjust({ uid: user.uid, currency: 'USDT', amount: '1', reason }, { lang: 'en-US' });
      expect(res, JSON.stringify(reason)).toMatchObject({ code: 1001, message: 'Invalid parameters: reason' });
    }
    expect((await adjust({ uid: user.uid, currency: 'US\u0000DT', amount: '1', reason: 'x' })).code).toBe(1001);
    for (const uid of [true, String(user.uid), ` ${user.uid}`, `${user.uid}e0`, [user.uid]]) {
      expect((await adjust({ uid, currency: 'USDT', amount: '1', reason: 'x' })).code, JSON.stringify(uid)).toBe(1001);
    }
    expect((await adjust({ uid: user.uid, currency: true, amount: '1', reason: 'x' })).code).toBe(1001);
    // A reason may span lines (an operator's note); it is stored as given, trimmed.
    const noted = await adjust({ uid: user.uid, currency: 'USDT', amount: '1', reason: ' ticket 12\r\nsee mail \n' });
    expect(noted.code).toBe(0);
    expect((await adjust({ uid: user.uid, currency: 'USDT', amount: '1', direction: 'debit', reason: 'undo\nticket 12' })).code).toBe(0);
    const [last] = await t.database.sql.query<{ reason: string }>('select reason from adjustments order by id desc limit 1 offset 1');
    expect(last!.reason).toBe('ticket 12\r\nsee mail');
    const en = await adjust({ uid: user.uid, currency: 'USDT', amount: '1000', direction: 'debit', reason: 'x' }, { lang: 'en-US' });
    expect(en.message).toBe('Insufficient balance');
    expect(await available()).toBe('100');
  });

  it('replays an Idempotency-Key and refuses it with another body', async () => {
    const key = 'ops-funding-0001';
    const body = { uid: user.uid, currency: 'USDT', amount: '5', reason: 'refund #1' };
    const first = await adjust(body, { key });
    const again = await adjust(body, { key });
    expect(again.data).toEqual({ ...first.data, replayed: true });
    expect(await available()).toBe('105');
    expect((await adjust({ ...body, amount: '6' }, { key })).code).toBe(3010);
  });

  it('audits the ledger for operators', async () => {
    const res = await call<AuditReport>('GET', '/api/admin/ledger/audit', { token: operator.token });
    expect(res.code).toBe(0);
    expect(res.data.ok).toBe(true);
    expect(res.data.checks.length).toBeGreaterThanOrEqual(13);
    expect(res.data.checks.every((c) => c.ok && c.violations === 0 && c.sample.length === 0)).toBe(true);
  });
});
