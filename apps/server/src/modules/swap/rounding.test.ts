import type { SwapApplyData, SwapQuoteData, SwapRecord } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, TOKEN_HEAD } from '../../core/session.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type Client, client } from '../../test/users.ts';
import { plain } from './pricing.ts';
import { credit, currencyId, makeUser, type SwapTestUser } from './test-support.ts';

/**
 * A swap's result and fee carry each currency's display precision, rounded toward the house
 * (docs/decisions/053-one-amount-one-reference.md): the quote, the record and the postings
 * say the same number, with no 18-digit tail from the rate.
 */
describe('swap rounding to display precision', () => {
  let t: TestApp;
  let call: Client;
  let u: SwapTestUser;
  let USDT: number;
  let ETH: number;
  let keyN = 0;
  const key = () => `swap-round-${++keyN}-${Date.now()}`;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    u = await makeUser(t.database);
    USDT = await currencyId(t.database, 'USDT');
    ETH = await currencyId(t.database, 'ETH');
    await credit(t.database, u.uid, 'USDT', '1000');
    await credit(t.database, u.uid, 'ETH', '1');
  });
  afterAll(() => t.close());

  const userPosting = async (entryId: number, code: string) => {
    const [row] = await t.database.sql.query<{ amount: string }>(
      `select p.amount::text as amount from postings p join accounts a on a.id = p.account_id
        join currencies c on c.id = a.currency_id
        where p.entry_id = $1 and a.user_id = $2 and c.code = $3`,
      [entryId, u.uid, code],
    );
    return plain(row!.amount);
  };

  /** Quotes, applies the quote, and checks the record says exactly what the quote said. */
  const quoteAndApply = async (body: { fromCurrencyId: number; toCurrencyId: number; amount: string }) => {
    const quote = await call<SwapQuoteData>('POST', '/api/swap/quote', { token: u.token, body });
    expect(quote.code).toBe(0);
    const applied = await call<SwapApplyData>('POST', '/api/swap/apply', {
      token: u.token,
      key: key(),
      body: { ...body, quoteId: quote.data.quoteId },
    });
    expect(applied.code).toBe(0);
    const stored = await call<SwapRecord>('GET', `/api/swap/${applied.data.id}`, { token: u.token });
    expect({ toAmount: stored.data.toAmount, fee: stored.data.fee }).toEqual({ toAmount: quote.data.toAmount, fee: quote.data.fee });
    expect({ toAmount: applied.data.toAmount, fee: applied.data.fee }).toEqual({ toAmount: quote.data.toAmount, fee: quote.data.fee });
    return { quote: quote.data, record: stored.data };
  };

  it('100 USDT → ETH: ETH at 6 decimals, received rounded down, fee rounded up', async () => {
    const { quote, record } = await quoteAndApply({ fromCurrencyId: USDT, toCurrencyId: ETH, amount: '100' });
    // gross = 100 × 0.000332333333333333 = 0.0332333333333333; fee = ⌈0.0000332333…⌉₆ = 0.000034;
    // receive = ⌊gross⌋₆ − fee = 0.033233 − 0.000034 (was 0.033200099999999966 at 18 decimals)
    expect(quote).toMatchObject({ toAmount: '0.033199', fee: '0.000034' });
    expect(await userPosting(record.entryId, 'ETH')).toBe('0.033199');
  });

  it('0.25 ETH → USDT: USDT at 2 decimals, the quote is the record (747, fee 0.75)', async () => {
    const { quote, record } = await quoteAndApply({ fromCurrencyId: ETH, toCurrencyId: USDT, amount: '0.25' });
    // gross = 747.75; fee = ⌈0.74775⌉₂ = 0.75; receive = 747.75 − 0.75 (was 747.00225, fee 0.74775)
    expect(quote).toMatchObject({ toAmount: '747', fee: '0.75' });
    expect(await userPosting(record.entryId, 'USDT')).toBe('747');
  });

  it('the SQL batch rounds a caller’s finer amounts itself, toward the house, and stays balanced', async () => {
    const token = hashToken(u.token.slice(TOKEN_HEAD.length));
    const [row] = await t.database.sql.query<{ b_state: string | null; swap_id: number }>(
      `select * from coffer_swap_batch($1::text[], $2::text[], $3::text[], $4::bigint[], $5::integer[], $6::integer[],
         $7::numeric[], $8::numeric[], $9::numeric[], $10::integer[], $11::numeric[], $12::numeric[], $13::integer[],
         $14::integer[], $15::text[])`,
      [
        [token],
        [key()],
        ['h'],
        [null],
        [USDT],
        [ETH],
        ['100'],
        ['0.033200099999999966'],
        ['0.000033233333333334'],
        [ETH],
        ['0.000332333333333333'],
        ['0.000333333333333333'],
        [30],
        [10],
        [null],
      ],
    );
    expect(row!.b_state).toBeNull();
    const record = await call<SwapRecord>('GET', `/api/swap/${row!.swap_id}`, { token: u.token });
    expect({ toAmount: record.data.toAmount, fee: record.data.fee }).toEqual({ toAmount: '0.0332', fee: '0.000034' });
    expect(await userPosting(record.data.entryId, 'ETH')).toBe('0.0332');
    const report = await auditLedger(t.database);
    expect(report.ok).toBe(true);
  });

  it('the single-item function rounds the same way (fee in the sold currency)', async () => {
    const [row] = await t.database.sql.query<{ swap_id: number }>(
      `select * from coffer_swap_apply($1, $2, 'h', null, $3, $4, '10', '0.003320009', '0.010001', $3,
         '0.000332333333333333', '0.000333333333333333', 30, 10, null, null, null, null, null)`,
      [u.uid, key(), USDT, ETH],
    );
    const record = await call<SwapRecord>('GET', `/api/swap/${row!.swap_id}`, { token: u.token });
    // USDT fee ⌈0.010001⌉₂ = 0.02; ETH received ⌊0.003320009⌋₆ = 0.00332
    expect({ toAmount: record.data.toAmount, fee: record.data.fee }).toEqual({ toAmount: '0.00332', fee: '0.02' });
    expect(await userPosting(record.data.entryId, 'USDT')).toBe('-10');
  });
});
