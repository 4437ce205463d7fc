import type { AdjustOutcome, AdjustRequest, Balance } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

/** Four eyes on money: a console adjustment above ADJUST_APPROVAL_ABOVE waits for a second, different operator. */
describe('ledger adjustments: four eyes', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let first: TestUser;
  let second: TestUser;
  let user: TestUser;
  let usdt: number;

  beforeAll(async () => {
    t = await createTestApp({ ADJUST_APPROVAL_ABOVE: 'USDT=1000,ETH=0.5' });
    call = client(t);
    first = await createUser(t, { email: 'first@eyes.test', role: 'operator' });
    second = await createUser(t, { email: 'second@eyes.test', role: 'operator' });
    user = await createUser(t, { email: 'member@eyes.test' });
    const list = await call<{ id: number; code: string }[]>('GET', '/api/currency/list');
    usdt = list.data.find((c) => c.code === 'USDT')!.id;
  });
  afterAll(() => t.close());

  const adjust = (body: Record<string, unknown>, token = first.token, key?: string) =>
    call<AdjustOutcome>('POST', '/api/admin/ledger/adjust', { token, body, key });
  const decide = (id: number, decision: 'approve' | 'reject', token: string, reason: unknown = 'checked the ticket') =>
    call<AdjustRequest>('POST', `/api/admin/ledger/adjust-requests/${id}/${decision}`, { token, body: { reason } });
  const pending = async (token = first.token) => (await call<AdjustRequest[]>('GET', '/api/admin/ledger/adjust-requests', { token })).data;
  const available = async (currency = usdt) =>
    (await call<Balance>('GET', `/api/currency/balance/${currency}`, { token: user.token })).data.available;
  const actions = () =>
    t.database.sql.query<{ action: string; actor: string; reason: string }>(
      `select action, actor, reason from operator_actions where action like 'ledger.adjust%' and target_id = $1 order by id`,
      [String(user.uid)],
    );

  it('up to the threshold applies at once; above it nothing moves and the first operator sees it pending', async () => {
    const small = await adjust({ uid: user.uid, currency: 'USDT', amount: '1000', reason: 'refund of a fee' });
    expect(small.data).toMatchObject({ status: 'applied', amount: '1000', balanceAfter: '1000' });
    const big = await adjust({ uid: user.uid, currency: 'USDT', amount: '1000.01', reason: 'goodwill for the outage' });
    expect(big.data).toMatchObject({
      status: 'pending',
      request: {
        uid: user.uid,
        email: 'member@eyes.test',
        code: 'USDT',
        amount: '1000.01',
        requestedBy: 'first@eyes.test',
        status: 'pending',
      },
    });
    expect(await available()).toBe('1000');
    const waiting = await pending();
    expect(waiting.map((r) => r.amount)).toEqual(['1000.01']);
    // a debit above the threshold waits too, with its sign
    const debit = await adjust({ uid: user.uid, currency: 'USDT', amount: '1500', direction: 'debit', reason: 'chargeback' });
    expect(debit.data).toMatchObject({ status: 'pending', request: { amount: '-1500' } });
    const refused = await decide((debit.data as { request: AdjustRequest }).request.id, 'reject', second.token, 'no chargeback on file');
    expect(refused.data).toMatchObject({ status: 'rejected', decidedBy: 'second@eyes.test', decisionReason: 'no chargeback on file' });
  });

  it('the operator who asked cannot approve (3041); a second operator approves and the entry is posted once', async () => {
    const [request] = await pending();
    expect((await decide(request!.id, 'approve', first.token)).code).toBe(3041);
    expect(await available()).toBe('1000');
    const approved = await decide(request!.id, 'approve', second.token, 'ticket 4411 checked');
    expect(approved.data).toMatchObject({ status: 'approved', decidedBy: 'second@eyes.test', decisionReason: 'ticket 4411 checked' });
    expect(approved.data.entryId).toBeGreaterThan(0);
    expect(await available()).toBe('2000.01');
    // decided once: a second approval or a rejection is 3007, nothing moves again
    expect((await decide(request!.id, 'approve', second.token)).code).toBe(3007);
    expect((await decide(request!.id, 'reject', second.token)).code).toBe(3007);
    expect(await available()).toBe('2000.01');
    expect(await pending()).toEqual([]);
    expect((await actions()).map((a) => [a.action, a.actor])).toEqual([
      ['ledger.adjust', 'first@eyes.test'],
      ['ledger.adjust.request', 'first@eyes.test'],
      ['ledger.adjust.request', 'first@eyes.test'],
      ['ledger.adjust.reject', 'second@eyes.test'],
      ['ledger.adjust.approve', 'second@eyes.test'],
    ]);
    const report = await auditLedger(t.database);
    expect(JSON.stringify(report.checks.filter((c) => c.violations > 0))).toBe('[]');
  });

  it('the rule holds in the database too: a request cannot be decided by its own operator', async () => {
    const big = await adjust({ uid: user.uid, currency: 'ETH', amount: '2', reason: 'migration from the old system' });
    const id = (big.data as { request: AdjustRequest }).request.id;
    await expect(
      t.database.sql.query(
        `update adjustment_requests set status = 'rejected', decided_by = requested_by, decided_at = now(), decision_reason = 'x' where id = $1`,
        [id],
      ),
    ).rejects.toThrow(/four_eyes/);
  });

  it('a double submit with one Idempotency-Key makes one request; a currency not listed always needs a second operator', async () => {
    const body = { uid: user.uid, currency: 'BTC', amount: '0.0001', reason: 'tiny but unlisted' };
    const a = await adjust(body, first.token, 'eyes-btc-1');
    const b = await adjust(body, first.token, 'eyes-btc-1');
    expect(a.data.status).toBe('pending');
    expect((b.data as { request: AdjustRequest }).request.id).toBe((a.data as { request: AdjustRequest }).request.id);
    expect((await pending()).filter((r) => r.code === 'BTC')).toHaveLength(1);
  });

  it('a debit the balance no longer covers is refused at approval (3001) and stays pending', async () => {
    const other = await createUser(t);
    await fund(t, other.uid, 'USDT', '5000');
    const big = await adjust({ uid: other.uid, currency: 'USDT', amount: '5000', direction: 'debit', reason: 'reversal' });
    const id = (big.data as { request: AdjustRequest }).request.id;
    await adjust({ uid: other.uid, currency: 'USDT', amount: '10', direction: 'debit', reason: 'fee' });
    expect((await decide(id, 'approve', second.token)).code).toBe(3001);
    expect((await pending()).find((r) => r.id === id)?.status).toBe('pending');
  });

  it('refuses non-operators (403), bad input (1001) and unknown ids (4004)', async () => {
    expect((await call('GET', '/api/admin/ledger/adjust-requests', { token: user.token })).status).toBe(403);
    expect((await call('GET', '/api/admin/ledger/adjust-requests')).code).toBe(2001);
    expect((await decide(1, 'approve', user.token)).status).toBe(403);
    expect((await call('GET', '/api/admin/ledger/adjust-requests?status=maybe', { token: first.token })).code).toBe(1001);
    for (const reason of ['', 'a\u0000b', 7]) expect((await decide(1, 'approve', second.token, reason)).code).toBe(1001);
    expect((await decide(999999, 'approve', second.token)).code).toBe(4004);
    expect((await call('POST', '/api/admin/ledger/adjust-requests/x/approve', { token: second.token, body: { reason: 'r' } })).code).toBe(
      1001,
    );
  });
});
