import type { SwapApplyData, TransferRecord, TurnoverPage } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type Client, client } from '../../test/users.ts';
import { credit, currencyId, makeUser, type SwapTestUser } from '../swap/test-support.ts';

/**
 * One reference per transaction (docs/decisions/053-one-amount-one-reference.md): its journal
 * entry. The record, every statement line of it (both parties), the CSV and the statement's
 * search all say the same number.
 */
describe('one reference per transaction', () => {
  let t: TestApp;
  let call: Client;
  let alice: SwapTestUser;
  let bob: SwapTestUser;
  let transfer: TransferRecord;
  let swap: SwapApplyData;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    alice = await makeUser(t.database);
    bob = await makeUser(t.database);
    const USDT = await currencyId(t.database, 'USDT');
    const ETH = await currencyId(t.database, 'ETH');
    await credit(t.database, alice.uid, 'USDT', '1000');
    const sent = await call<TransferRecord>('POST', '/api/transfer/transferByUID', {
      token: alice.token,
      key: 'ref-transfer-1',
      body: { uid: bob.uid, currencyId: USDT, amount: '16', memo: 'ref' },
    });
    expect(sent.code).toBe(0);
    transfer = sent.data;
    swap = (
      await call<SwapApplyData>('POST', '/api/swap/apply', {
        token: alice.token,
        key: 'ref-swap-1',
        body: { fromCurrencyId: USDT, toCurrencyId: ETH, amount: '20' },
      })
    ).data;
  });
  afterAll(() => t.close());

  const statement = (token: string, body: Record<string, unknown> = {}) =>
    call<TurnoverPage>('POST', '/api/getTurnover', { token, body: { page: 1, pageSize: 20, ...body } });

  it('a transfer carries its reference on the answer, its record and both parties’ statement lines', async () => {
    expect(transfer.reference).toEqual(expect.any(Number));
    const [entry] = await t.database.sql.query<{ entry_id: number }>('select entry_id from transfers where id = $1', [transfer.id]);
    expect(transfer.reference).toBe(Number(entry!.entry_id));
    const record = await call<TransferRecord>('GET', `/api/transfer/details/${transfer.id}`, { token: alice.token });
    expect(record.data.reference).toBe(transfer.reference);
    const received = await call<TransferRecord>('GET', `/api/transfer/details/${transfer.id}`, { token: bob.token });
    expect(received.data.reference).toBe(transfer.reference);
    const mine = (await statement(alice.token)).data.list.find((l) => l.type === 'transfer_out')!;
    const theirs = (await statement(bob.token)).data.list.find((l) => l.type === 'transfer_in')!;
    expect([mine.reference, theirs.reference]).toEqual([transfer.reference, transfer.reference]);
  });

  it('a swap’s two statement lines carry the swap’s reference', async () => {
    const lines = (await statement(alice.token)).data.list.filter((l) => l.type === 'swap');
    expect(lines.map((l) => l.reference)).toEqual([swap.entryId, swap.entryId]);
  });

  it('the CSV’s reference column is filled for every line, transfers included', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/turnover/export.csv',
      headers: { 'x-token': alice.token, 'accept-language': 'en-US' },
    });
    const lines = res.rawPayload.toString('utf8').slice(1).split('\r\n').slice(0, -1);
    expect(lines[0]!.split(',')[0]).toBe('Reference');
    const transferLine = lines.find((l) => l.includes('Transfer out'))!;
    expect(transferLine.split(',')[0]).toBe(String(transfer.reference));
    for (const line of lines.slice(1)) expect(line.split(',')[0]).toMatch(/^\d+$/);
  });

  it('the statement finds a transaction by its reference, only the user’s own', async () => {
    const found = await statement(alice.token, { reference: transfer.reference });
    expect(found.data.list.map((l) => [l.type, l.reference])).toEqual([['transfer_out', transfer.reference]]);
    const swapLines = await statement(alice.token, { reference: swap.entryId });
    expect(swapLines.data.total).toBe(2);
    const others = await statement(bob.token, { reference: swap.entryId });
    expect(others.data.total).toBe(0);
    const bad = await statement(alice.token, { reference: 'sixteen' });
    expect(bad.code).toBe(1001);
  });
});
