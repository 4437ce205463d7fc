import type { Balance, TransferRecord, TransferResult } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

describe('transfers', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let usdt: number;
  let btc: number;
  let key = 0;
  const nextKey = () => `test-key-${++key}-${Date.now()}`;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    alice = await createUser(t, { email: 'alice@example.com', nickname: 'Alice' });
    bob = await createUser(t, { email: 'bob@example.com', nickname: 'Bob' });
    carol = await createUser(t, { email: 'carol@example.com', nickname: 'Carol' });
    const list = await call<{ id: number; code: string }[]>('GET', '/api/currency/list');
    usdt = list.data.find((c) => c.code === 'USDT')!.id;
    btc = list.data.find((c) => c.code === 'BTC')!.id;
    await fund(t, alice.uid, 'USDT', '100');
    await fund(t, alice.uid, 'BTC', '1');
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  const balanceOf = async (u: TestUser, currencyId: number) =>
    (await call<Balance>('GET', `/api/currency/balance/${currencyId}`, { token: u.token })).data.available;

  it('sends by e-mail and by uid; both sides see it', async () => {
    const byEmail = await call<TransferResult>('POST', '/api/transfer/transferByEmail', {
      token: alice.token,
      key: nextKey(),
      body: { email: 'Bob@Example.com', currencyId: usdt, amount: '12.5', memo: 'lunch' },
    });
    expect(byEmail).toMatchObject({
      code: 0,
      data: {
        direction: 'out',
        currencyId: usdt,
        code: 'USDT',
        amount: '12.5',
        memo: 'lunch',
        counterparty: { uid: bob.uid, maskedEmail: 'b***b@example.com', nickname: 'Bob' },
        status: 'success',
        replayed: false,
      },
    });
    expect(byEmail.data.createdAt).toMatch(/Z$/);
    const byUid = await call<TransferResult>('POST', '/api/transfer/transferByUID', {
      token: alice.token,
      body: { uid: carol.uid, currencyId: btc, amount: '0.00000001' },
    });
    expect(byUid).toMatchObject({ code: 0, data: { amount: '0.00000001', memo: null, counterparty: { uid: carol.uid } } });
    expect(await balanceOf(alice, usdt)).toBe('87.5');
    expect(await balanceOf(bob, usdt)).toBe('12.5');
    expect(await balanceOf(alice, btc)).toBe('0.99999999');
    expect(await balanceOf(carol, btc)).toBe('0.00000001');

    const bobSees = await call<{ list: TransferRecord[]; total: number }>('POST', '/api/transfer/clientPage', {
      token: bob.token,
      body: { page: 1, pageSize: 10 },
    });
    expect(bobSees.data.total).toBe(1);
    expect(bobSees.data.list[0]).toMatchObject({ id: byEmail.data.id, direction: 'in', counterparty: { uid: alice.uid } });
  });
});
