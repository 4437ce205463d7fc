import type { SwapApplyData, TurnoverDetail, TurnoverPage } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type Client, client } from '../../test/users.ts';
import { credit, currencyId, makeUser, rawPosting, type SwapTestUser } from '../swap/test-support.ts';
import { csvField } from './csv.ts';

describe('turnover (statement)', () => {
  let t: TestApp;
  let call: Client;
  let alice: SwapTestUser;
  let bob: SwapTestUser;
  let USDT: number;
  let ETH: number;
  let swap: SwapApplyData;
  let started: string;
  const MEMO = '房租, "June" =1+1';

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    alice = await makeUser(t.database, { email: 'alice.turnover@test.coffer' });
    bob = await makeUser(t.database, { email: 'bob.turnover@test.coffer' });
    USDT = await currencyId(t.database, 'USDT');
    ETH = await currencyId(t.database, 'ETH');
    started = new Date(Date.now() - 1000).toISOString();
    await credit(t.database, alice.uid, 'USDT', '1000');
    const sent = await call('POST', '/api/transfer/transferByUID', {
      token: alice.token,
      key: 'turnover-transfer-1',
      body: { uid: bob.uid, currencyId: USDT, amount: '100.5', memo: MEMO },
    });
    expect(sent.code).toBe(0);
    const swapped = await call<SwapApplyData>('POST', '/api/swap/apply', {
      token: alice.token,
      key: 'turnover-swap-1',
      body: { fromCurrencyId: USDT, toCurrencyId: ETH, amount: '300' },
    });
    expect(swapped.code).toBe(0);
    swap = swapped.data;
    await rawPosting(t.database, alice.uid, 'ETH', '0.25', 'test_credit');
  });
  afterAll(() => t.close());

  const page = (token: string, body: Record<string, unknown> = {}) =>
    call<TurnoverPage>('POST', '/api/getTurnover', { token, body: { page: 1, pageSize: 20, ...body } });

  it('lists every posting on the user accounts, newest first, signed, with balance after', async () => {
    const res = await page(alice.token);
    expect(res.code).toBe(0);
    expect(res.data.total).toBe(5);
    expect(res.data.list.map((l) => [l.type, l.currency, l.amount, l.balanceAfter])).toEqual([
      ['test_credit', 'ETH', '0.25', addEth(swap.toAmount, '0.25')],
      ['swap', 'ETH', swap.toAmount, swap.toAmount],
      ['swap', 'USDT', '-300', '599.5'],
      ['transfer_out', 'USDT', '-100.5', '899.5'],
      ['adjustment', 'USDT', '1000', '1000'],
    ]);
    // gross = 300 × 0.000332333333333333 = 0.0996999999999999; at ETH's display precision (6):
    // fee = ⌈gross × 0.001⌉₆ = 0.0001, receive = ⌊gross⌋₆ − fee = 0.099599
    expect(swap).toMatchObject({ rate: '0.000332333333333333', toAmount: '0.099599', fee: '0.0001' });
    const [deposit, swapIn, swapOut, transfer, adjustment] = res.data.list;
    expect(swapOut).toMatchObject({
      reference: swap.entryId,
      summary: 'USDT→ETH',
      rate: swap.rate,
      fee: swap.fee,
      feeCurrency: 'ETH',
      counterparty: null,
      memo: null,
    });
    expect(swapIn!.entryId).toBe(swapOut!.entryId);
    expect(transfer).toMatchObject({
      counterparty: { uid: bob.uid, maskedEmail: 'b***r@test.coffer', nickname: 'bob.turnover' },
      memo: MEMO,
      summary: null,
      rate: null,
      accountKind: 'available',
    });
    expect(adjustment).toMatchObject({ counterparty: null, memo: null });
    expect(deposit!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('shows the receiving side of a transfer as transfer_in with the sender', async () => {
    const res = await page(bob.token);
    expect(res.data.list).toHaveLength(1);
    expect(res.data.list[0]).toMatchObject({
      type: 'transfer_in',
      amount: '100.5',
      balanceAfter: '100.5',
      counterparty: { uid: alice.uid, maskedEmail: 'a***r@test.coffer' },
    });
  });

  it('filters by currency, type and time, and pages', async () => {
    const usdt = await page(alice.token, { currencyId: USDT });
    expect(usdt.data.list.map((l) => l.type)).toEqual(['swap', 'transfer_out', 'adjustment']);
    const out = await page(alice.token, { type: 'transfer_out' });
    expect(out.data.list.map((l) => l.amount)).toEqual(['-100.5']);
    expect((await page(alice.token, { type: 'transfer_in' })).data.total).toBe(0);
    expect((await page(alice.token, { type: 'swap' })).data.total).toBe(2);
    expect((await page(alice.token, { type: 'swap', currencyId: ETH })).data.list.map((l) => l.amount)).toEqual([swap.toAmount]);
    expect((await page(alice.token, { type: 'withdraw' })).data.total).toBe(0);
    expect((await page(alice.token, { from: started })).data.total).toBe(5);
    expect((await page(alice.token, { to: started })).data.total).toBe(0);
    expect((await page(alice.token, { from: new Date(Date.now() + 60_000).toISOString() })).data.total).toBe(0);
    const p2 = await page(alice.token, { page: 2, pageSize: 2 });
    expect(p2.data).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(p2.data.list.map((l) => l.type)).toEqual(['swap', 'transfer_out']);
    const far = await page(alice.token, { page: 9 });
    expect(far.data.list).toEqual([]);
  });

  it('refuses bad filters and anonymous calls', async () => {
    for (const body of [
      { pageSize: 0 },
      { pageSize: 101 },
      { page: 0 },
      { type: 'DROP TABLE' },
      { from: 'last week' },
      { currencyId: -1 },
    ]) {
      const res = await page(alice.token, body);
      expect(res.code, JSON.stringify(body)).toBe(1001);
    }
    const anonymous = await call('POST', '/api/getTurnover', { body: { page: 1, pageSize: 20 } });
    expect(anonymous.code).toBe(2001);
  });

  it('details one line with its entry and swap record; another user gets 4004', async () => {
    const list = (await page(alice.token, { type: 'swap', currencyId: USDT })).data.list;
    const line = list[0]!;
    const res = await call<TurnoverDetail>('GET', `/api/getAccountantTurnover/${line.id}`, { token: alice.token });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      id: line.id,
      type: 'swap',
      amount: '-300',
      entry: { id: swap.entryId, kind: 'swap' },
      swap: {
        id: swap.id,
        fromCurrency: 'USDT',
        toCurrency: 'ETH',
        fromAmount: '300',
        toAmount: swap.toAmount,
        rate: swap.rate,
        fee: swap.fee,
      },
    });
    // Only the user's own two postings of the entry, never the house or fees legs.
    expect(res.data.entry.postings.map((p) => [p.currency, p.amount])).toEqual([
      ['USDT', '-300'],
      ['ETH', swap.toAmount],
    ]);
    const transfer = (await page(alice.token, { type: 'transfer_out' })).data.list[0]!;
    const tDetail = await call<TurnoverDetail>('GET', `/api/getAccountantTurnover/${transfer.id}`, { token: alice.token });
    expect(tDetail.data).toMatchObject({ swap: null, entry: { kind: 'transfer', memo: MEMO }, counterparty: { uid: bob.uid } });

    expect((await call('GET', `/api/getAccountantTurnover/${line.id}`, { token: bob.token })).code).toBe(4004);
    expect((await call('GET', '/api/getAccountantTurnover/999999999', { token: alice.token })).code).toBe(4004);
    expect((await call('GET', '/api/getAccountantTurnover/x', { token: alice.token })).code).toBe(1001);
    expect((await call('GET', `/api/getAccountantTurnover/${line.id}`)).code).toBe(2001);
  });

  describe('CSV export', () => {
    const exportCsv = (token: string | undefined, query = '', lang?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/turnover/export.csv${query}`,
        headers: { ...(token && { 'x-token': token }), ...(lang && { 'accept-language': lang }) },
      });

    it('exports the statement with BOM, localized header, escaping and swap rate and fee', async () => {
      const res = await exportCsv(alice.token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="coffer-statement-\d{8}\.csv"$/);
      const raw = res.rawPayload;
      expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = raw.toString('utf8').slice(1);
      const lines = text.split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]).toBe('交易编号,时间(UTC),类型,币种,金额,变动后余额,对方,摘要,汇率,手续费,手续费币种,备注');
      expect(lines).toHaveLength(1 + 5 + 1);
      const swapLine = lines.find((l) => l.includes('USDT→ETH') && l.includes(',USDT,'))!;
      expect(swapLine.split(',').slice(2)).toEqual(['兑换', 'USDT', '-300', '599.5', '', 'USDT→ETH', swap.rate, swap.fee, 'ETH', '']);
      const transferLine = lines.find((l) => l.includes('转出'))!;
      // A formula-looking memo is defused: the cell starts with an apostrophe.
      expect(csvField('=HYPERLINK("x")', { text: true })).toBe(`"'=HYPERLINK(""x"")"`);
      expect(transferLine).toContain(`,-100.5,899.5,b***r@test.coffer (UID ${bob.uid}),,,,,"房租, ""June"" =1+1"`);
    });

    it('follows accept-language and the filters', async () => {
      const res = await exportCsv(alice.token, `?currencyId=${ETH}&type=swap`, 'en-US');
      const lines = res.rawPayload.toString('utf8').slice(1).split('\r\n');
      expect(lines[0]).toBe('Reference,Time (UTC),Type,Currency,Amount,Balance after,Counterparty,Summary,Rate,Fee,Fee currency,Memo');
      expect(lines.slice(1, -1)).toHaveLength(1);
      expect(lines[1]).toContain(`,Swap,ETH,${swap.toAmount},`);
      const empty = await exportCsv(bob.token, `?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
      expect(empty.rawPayload.toString('utf8').slice(1).split('\r\n')).toHaveLength(2);
    });

    it('streams past one batch', async () => {
      const u = await makeUser(t.database);
      for (let i = 0; i < 12; i++) await rawPosting(t.database, u.uid, 'USDT', `${i + 1}`, 'test_credit');
      const service = new (await import('./service.ts')).TurnoverService(t.database);
      const amounts: string[] = [];
      for await (const item of service.lines(u.uid, {}, 5)) amounts.push(item.amount);
      expect(amounts).toEqual(Array.from({ length: 12 }, (_, i) => String(12 - i)));
      const res = await exportCsv(u.token);
      expect(res.rawPayload.toString('utf8').split('\r\n')).toHaveLength(1 + 12 + 1);
    });

    it('needs a session and valid filters (JSON envelope)', async () => {
      const anonymous = await exportCsv(undefined);
      expect(anonymous.json()).toMatchObject({ code: 2001 });
      const bad = await exportCsv(alice.token, '?currencyId=abc');
      expect(bad.json()).toMatchObject({ code: 1001 });
    });

    it('escapes fields per RFC 4180 and defuses formulas in free text', () => {
      expect(csvField('plain')).toBe('plain');
      expect(csvField('a,b')).toBe('"a,b"');
      expect(csvField('say "hi"')).toBe('"say ""hi"""');
      expect(csvField('two\nlines')).toBe('"two\nlines"');
      expect(csvField('=SUM(A1)', { text: true })).toBe("'=SUM(A1)");
      expect(csvField('@cmd', { text: true })).toBe("'@cmd");
      expect(csvField('-12.5')).toBe('-12.5');
      expect(csvField(null)).toBe('');
    });
  });

  it('leaves a ledger that passes the audit, swaps included', async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toContain('entry_has_business_row');
  });
});

function addEth(a: string, b: string): string {
  const scale = 18;
  const toUnits = (v: string) => {
    const [i = '0', f = ''] = v.split('.');
    return BigInt(i + f.padEnd(scale, '0'));
  };
  const sum = (toUnits(a) + toUnits(b)).toString().padStart(scale + 1, '0');
  const int = sum.slice(0, -scale);
  const frac = sum.slice(-scale).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}
