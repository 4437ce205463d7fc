import type { SwapApplyData, SwapPair, SwapQuoteData, SwapRecord, SwapRecordPage } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, TOKEN_HEAD } from '../../core/session.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { Decimal, plain } from './pricing.ts';
import { type Client, client } from '../../test/users.ts';
import { balanceOf, credit, currencyId, makeUser, type SwapTestUser } from './test-support.ts';

/** The session token hash coffer_swap_batch() takes for a user. */
const tokenHashOf = (u: SwapTestUser) => hashToken(u.token.slice(TOKEN_HEAD.length));

describe('swap API', () => {
  let t: TestApp;
  let call: Client;
  let alice: SwapTestUser;
  let bob: SwapTestUser;
  let USDT: number;
  let ETH: number;
  let BTC: number;
  let USDC: number;
  let keyN = 0;
  const key = () => `swap-test-key-${++keyN}-${Date.now()}`;
  const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.database.sql.query<T>(text, params);
  /** The answer to a new swap is the stored record, as GET /api/swap/:id reads it back. */
  const expectStored = async (data: SwapApplyData, token: string) => {
    const { replayed, ...record } = data;
    expect(replayed).toBe(false);
    expect((await call<SwapRecord>('GET', `/api/swap/${record.id}`, { token })).data).toEqual(record);
  };

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    alice = await makeUser(t.database);
    bob = await makeUser(t.database);
    [USDT, ETH, BTC, USDC] = (await Promise.all(['USDT', 'ETH', 'BTC', 'USDC'].map((c) => currencyId(t.database, c)))) as [
      number,
      number,
      number,
      number,
    ];
    await credit(t.database, alice.uid, 'USDT', '100000');
    await credit(t.database, alice.uid, 'ETH', '10');
    await credit(t.database, bob.uid, 'USDT', '1000');
  });
  afterAll(() => t.close());

  describe('GET /api/swap/rates', () => {
    it('lists every seeded direction publicly, with the rate after spread and after fee', async () => {
      const res = await call<{ list: SwapPair[] }>('GET', '/api/swap/rates');
      expect(res.code).toBe(0);
      expect(res.data.list).toHaveLength(12);
      const ethUsdt = res.data.list.find((p) => p.fromCurrency === 'ETH' && p.toCurrency === 'USDT')!;
      expect(ethUsdt).toMatchObject({
        fromCurrencyId: ETH,
        toCurrencyId: USDT,
        rate: '2991',
        effectiveRate: '2988.009',
        spreadBps: 30,
        feeBps: 10,
        feeCurrencyId: USDT,
        minAmount: '0.001',
        maxAmount: '50',
      });
      expect(new Date(ethUsdt.updatedAt).toISOString()).toBe(ethUsdt.updatedAt);
      const usdtUsdc = res.data.list.find((p) => p.fromCurrency === 'USDT' && p.toCurrency === 'USDC')!;
      expect(usdtUsdc.rate).toBe('0.999');
    });

    it('leaves out disabled pairs', async () => {
      await q(`update swap_pairs set enabled = false where from_currency_id = $1 and to_currency_id = $2`, [BTC, ETH]);
      const res = await call<{ list: SwapPair[] }>('GET', '/api/swap/rates');
      expect(res.data.list).toHaveLength(11);
      const quote = await call('POST', '/api/swap/quote', {
        token: alice.token,
        body: { fromCurrencyId: BTC, toCurrencyId: ETH, amount: '1' },
      });
      expect(quote.code).toBe(3003);
      await q(`update swap_pairs set enabled = true where from_currency_id = $1 and to_currency_id = $2`, [BTC, ETH]);
    });
  });

  describe('POST /api/swap/quote', () => {
    it('needs a session', async () => {
      const res = await call('POST', '/api/swap/quote', { body: { fromCurrencyId: ETH, toCurrencyId: USDT, amount: '1' } });
      expect(res.code).toBe(2001);
    });

    it('quotes with exact amounts, rounding toward the house, held for 15 s', async () => {
      const before = Date.now();
      const res = await call<SwapQuoteData>('POST', '/api/swap/quote', {
        token: alice.token,
        body: { fromCurrencyId: ETH, toCurrencyId: USDT, amount: '0.123456789012345678' },
      });
      expect(res.code).toBe(0);
      // gross = 0.123456789012345678 × 2991 = 369.259255935925922898
      // USDT at its display precision (2): fee = ⌈0.369259…⌉₂ = 0.37; receive = ⌊gross⌋₂ − fee = 368.88
      expect(res.data).toMatchObject({
        fromCurrencyId: ETH,
        toCurrencyId: USDT,
        rate: '2991',
        fromAmount: '0.123456789012345678',
        toAmount: '368.88',
        fee: '0.37',
        feeCurrencyId: USDT,
      });
      const ttl = new Date(res.data.expiresAt).getTime() - before;
      expect(ttl).toBeGreaterThan(13_000);
      expect(ttl).toBeLessThan(17_000);
      const [row] = await q<{ user_id: number; used_at: unknown }>(`select user_id, used_at from swap_quotes where id = $1`, [
        res.data.quoteId,
      ]);
      expect(row).toMatchObject({ user_id: alice.uid, used_at: null });
    });

    it('rounds the receive amount down to the target decimals (USDT → BTC)', async () => {
      // rate = 0.000016666666666666 × 0.997 = 0.000016616666666666002 → 0.000016616666666666 (18 dp, down)
      // gross = 1234.567891 × rate = 0.020514403122115843621406; fee = ⌈gross × 0.001⌉₈ = 0.00002052
      // receive = ⌊gross⌋₈ − fee = 0.0205144 − 0.00002052
      const res = await call<SwapQuoteData>('POST', '/api/swap/quote', {
        token: alice.token,
        body: { fromCurrencyId: USDT, toCurrencyId: BTC, amount: '1234.567891' },
      });
      expect(res.code).toBe(0);
      expect(res.data.rate).toBe('0.000016616666666666');
      expect(res.data.fee).toBe('0.00002052');
      expect(res.data.toAmount).toBe('0.02049388');
    });

    it.each([
      ['negative', '-1', 1001],
      ['zero', '0', 1001],
      ['zero with decimals', '0.000', 1001],
      ['non-numeric', 'abc', 1001],
      ['exponent', '1e3', 1001],
      ['huge', '1'.repeat(21), 1001],
      ['more decimals than ETH allows in the contract', `0.${'1'.repeat(19)}`, 1001],
      ['more decimals than USDT has', '10.1234567', 3002],
      ['below the minimum', '0.5', 3002],
      ['above the maximum', '100001', 3002],
    ])('refuses an amount: %s', async (_name, amount, code) => {
      const res = await call('POST', '/api/swap/quote', { token: alice.token, body: { fromCurrencyId: USDT, toCurrencyId: ETH, amount } });
      expect(res.code).toBe(code);
      expect(res.data).toBeNull();
    });

    it('refuses a JSON number amount, missing fields, unknown currencies and same-currency swaps', async () => {
      const num = await call('POST', '/api/swap/quote', {
        token: alice.token,
        body: { fromCurrencyId: USDT, toCurrencyId: ETH, amount: 5 },
      });
      expect(num.code).toBe(1001);
      expect(num.message).toContain('amount');
      const missing = await call('POST', '/api/swap/quote', { token: alice.token, body: { fromCurrencyId: USDT, amount: '5' } });
      expect(missing.code).toBe(1001);
      const unknown = await call('POST', '/api/swap/quote', {
        token: alice.token,
        body: { fromCurrencyId: 999, toCurrencyId: ETH, amount: '5' },
      });
      expect(unknown.code).toBe(3003);
      const same = await call('POST', '/api/swap/quote', {
        token: alice.token,
        lang: 'en-US',
        body: { fromCurrencyId: USDT, toCurrencyId: USDT, amount: '5' },
      });
      expect(same.code).toBe(1001);
      expect(same.message).toBe('Invalid parameters: toCurrencyId: must differ from fromCurrencyId');
    });

    it('refuses an amount too small to receive anything', async () => {
      await q(`update swap_pairs set min_amount = null where from_currency_id = $1 and to_currency_id = $2`, [USDT, BTC]);
      const res = await call('POST', '/api/swap/quote', {
        token: alice.token,
        body: { fromCurrencyId: USDT, toCurrencyId: BTC, amount: '0.000001' },
      });
      expect(res.code).toBe(3002);
      await q(`update swap_pairs set min_amount = 1 where from_currency_id = $1 and to_currency_id = $2`, [USDT, BTC]);
    });
  });

  describe('POST /api/swap/apply', () => {
    it('swaps at the live rate as one balanced entry through the house, fee to the fees account', async () => {
      const u = await makeUser(t.database);
      await credit(t.database, u.uid, 'ETH', '2');
      const houseEthBefore = await balanceOf(t.database, null, 'ETH', 'house');
      const houseUsdtBefore = await balanceOf(t.database, null, 'USDT', 'house');
      const feesBefore = await balanceOf(t.database, null, 'USDT', 'fees');
      const res = await call<SwapApplyData>('POST', '/api/swap/apply', {
        token: u.token,
        key: key(),
        body: { fromCurrencyId: ETH, toCurrencyId: USDT, amount: '1.5' },
      });
      expect(res.code).toBe(0);
      // gross = 1.5 × 2991 = 4486.5; fee = ⌈4.4865⌉₂ = 4.49 (USDT display precision); receive = 4482.01
      expect(res.data).toMatchObject({
        fromCurrency: 'ETH',
        toCurrency: 'USDT',
        fromAmount: '1.5',
        toAmount: '4482.01',
        fee: '4.49',
        feeCurrency: 'USDT',
        rate: '2991',
        midRate: '3000',
        quoteId: null,
        replayed: false,
      });
      expect(await balanceOf(t.database, u.uid, 'ETH')).toBe('0.5');
      expect(await balanceOf(t.database, u.uid, 'USDT')).toBe('4482.01');
      const delta = (after: string, before: string) => new Decimal(after).minus(before).toFixed();
      expect(delta(await balanceOf(t.database, null, 'ETH', 'house'), houseEthBefore)).toBe('1.5');
      expect(delta(await balanceOf(t.database, null, 'USDT', 'house'), houseUsdtBefore)).toBe('-4486.5');
      expect(delta(await balanceOf(t.database, null, 'USDT', 'fees'), feesBefore)).toBe('4.49');
      const postings = await q<{ kind: string; amount: string; user_id: number | null }>(
        `select a.kind, p.amount::text as amount, a.user_id from postings p join accounts a on a.id = p.account_id
          where p.entry_id = $1 order by p.id`,
        [res.data.entryId],
      );
      expect(postings.map((p) => [p.kind, plain(p.amount)])).toEqual([
        ['available', '-1.5'],
        ['house', '1.5'],
        ['house', '-4486.5'],
        ['available', '4482.01'],
        ['fees', '4.49'],
      ]);
      const [entry] = await q<{ kind: string; user_id: number }>(`select kind, user_id from journal_entries where id = $1`, [
        res.data.entryId,
      ]);
      expect(entry).toEqual({ kind: 'swap', user_id: u.uid });
      await expectStored(res.data, u.token);
    });

    it('takes the fee from the sold side when the pair says so, rounding the fee up', async () => {
      await q(`update swap_pairs set fee_currency = 'from' where from_currency_id = $1 and to_currency_id = $2`, [USDT, ETH]);
      try {
        // rate = ⌊0.000333333333333333 × 0.997⌋₁₈ = 0.000332333333333333
        // fee = ⌈10.000001 × 0.001⌉₂ = 0.02; receive = ⌊9.980001 × rate⌋₆ (0.0033166…) = 0.003316
        const res = await call<SwapApplyData>('POST', '/api/swap/apply', {
          token: alice.token,
          key: key(),
          body: { fromCurrencyId: USDT, toCurrencyId: ETH, amount: '10.000001' },
        });
        expect(res.code).toBe(0);
        expect(res.data).toMatchObject({
          fee: '0.02',
          feeCurrency: 'USDT',
          rate: '0.000332333333333333',
          toAmount: '0.003316',
        });
        const [house] = await q<{ amount: string }>(
          `select p.amount::text as amount from postings p join accounts a on a.id = p.account_id
            where p.entry_id = $1 and a.kind = 'house' and a.currency_id = $2`,
          [res.data.entryId, USDT],
        );
        expect(house!.amount).toBe('9.980001000000000000');
      } finally {
        await q(`update swap_pairs set fee_currency = 'to' where from_currency_id = $1 and to_currency_id = $2`, [USDT, ETH]);
      }
    });

    it('honours a valid quote exactly, once', async () => {
      const quote = await call<SwapQuoteData>('POST', '/api/swap/quote', {
        token: alice.token,
        body: { fromCurrencyId: USDT, toCurrencyId: USDC, amount: '250' },
      });
      const res = await call<SwapApplyData>('POST', '/api/swap/apply', {
        token: alice.token,
        key: key(),
        body: { fromCurrencyId: USDT, toCurrencyId: USDC, amount: '250.000', quoteId: quote.data.quoteId },
      });
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({ quoteId: quote.data.quoteId, toAmount: quote.data.toAmount, fee: quote.data.fee, rate: '0.999' });
      // 250 × 0.999 = 249.75; fee ⌈0.24975⌉₂ = 0.25; receive 249.5
      expect(quote.data).toMatchObject({ toAmount: '249.5', fee: '0.25' });
      await expectStored(res.data, alice.token);
      const again = await call('POST', '/api/swap/apply', {
        token: alice.token,
        key: key(),
        body: { fromCurrencyId: USDT, toCurrencyId: USDC, amount: '250', quoteId: quote.data.quoteId },
      });
      expect(again.code).toBe(3006);
    });

    it('refuses a quote of another user, for another request, expired, or after the rate moved (3006)', async () => {
      const body = { fromCurrencyId: ETH, toCurrencyId: USDT, amount: '0.01' };
      const mine = await call<SwapQuoteData>('POST', '/api/swap/quote', { token: alice.token, body });
      const bobs = await call('POST', '/api/swap/apply', { token: bob.token, key: key(), body: { ...body, quoteId: mine.data.quoteId } });
      expect(bobs.code).toBe(3006);
      const otherAmount = await call('POST', '/api/swap/apply', {
        token: alice.token,
        key: key(),
        body: { ...body, amount: '0.02', quoteId: mine.data.quoteId },
      });
      expect(otherAmount.code).toBe(3006);
      const otherPair = await call('POST', '/api/swap/apply', {
        token: alice.token,
        key: key(),
        body: { ...body, toCurrencyId: USDC, quoteId: mine.data.quoteId },
      });
      expect(otherPair.code).toBe(3006);
      const unknown = await call('POST', '/api/swap/apply', { token: alice.token, key: key(), body: { ...body, quoteId: 987654 } });
      expect(unknown.code).toBe(3006);

      await q(`update swap_quotes set expires_at = now() - interval '1 second' where id = $1`, [mine.data.quoteId]);
      const expired = await call('POST', '/api/swap/apply', {
        token: alice.token,
        key: key(),
        body: { ...body, quoteId: mine.data.quoteId },
      });
      expect(expired.code).toBe(3006);

      // A move within the tolerance (0.1% < 0.2%) still honours the quote at the quoted amounts.
      const small = await call<SwapQuoteData>('POST', '/api/swap/quote', { token: alice.token, body });
      const big = await call<SwapQuoteData>('POST', '/api/swap/quote', { token: alice.token, body });
      await q(`update swap_pairs set mid_rate = 3003, updated_at = now() where from_currency_id = $1 and to_currency_id = $2`, [ETH, USDT]);
      try {
        const held = await call<SwapApplyData>('POST', '/api/swap/apply', {
          token: alice.token,
          key: key(),
          body: { ...body, quoteId: small.data.quoteId },
        });
        expect(held.code).toBe(0);
        expect(held.data.toAmount).toBe(small.data.toAmount);
        expect(held.data.rate).toBe('2991');
        await q(`update swap_pairs set mid_rate = 2990 where from_currency_id = $1 and to_currency_id = $2`, [ETH, USDT]);
        const moved = await call('POST', '/api/swap/apply', {
          token: alice.token,
          key: key(),
          lang: 'en-US',
          body: { ...body, quoteId: big.data.quoteId },
        });
        expect(moved.code).toBe(3006);
        expect(moved.message).toBe('Quote expired or rate moved: rate moved');
        const [unused] = await q<{ used_at: unknown }>(`select used_at from swap_quotes where id = $1`, [big.data.quoteId]);
        expect(unused!.used_at).toBeNull();
      } finally {
        await q(`update swap_pairs set mid_rate = 3000 where from_currency_id = $1 and to_currency_id = $2`, [ETH, USDT]);
      }
    });

    it('answers 3001 on insufficient balance and moves nothing (the refusal is kept under its key)', async () => {
      const entriesBefore = await q<{ n: number; last: number }>(
        `select count(*) filter (where refusal is null)::int as n, coalesce(max(id), 0)::int as last from journal_entries`,
      );
      const res = await call('POST', '/api/swap/apply', {
        token: bob.token,
        key: key(),
        body: { fromCurrencyId: USDT, toCurrencyId: ETH, amount: '1000.000001' },
      });
      expect(res.code).toBe(3001);
      const noAccount = await call('POST', '/api/swap/apply', {
        token: bob.token,
        key: key(),
        body: { fromCurrencyId: BTC, toCurrencyId: USDT, amount: '0.001' },
      });
      expect(noAccount.code).toBe(3001);
      const entriesAfter = await q<{ n: number }>(`select count(*)::int as n from journal_entries where refusal is null`);
      expect(entriesAfter[0]!.n).toBe(entriesBefore[0]!.n);
      const kept = await q<{ refusal: string; postings: number }>(
        `select e.refusal, (select count(*)::int from postings p where p.entry_id = e.id) as postings
           from journal_entries e where e.user_id = $1 and e.refusal is not null and e.id > $2`,
        [bob.uid, entriesBefore[0]!.last],
      );
      expect(kept).toEqual([
        { refusal: 'CB001', postings: 0 },
        { refusal: 'CB001', postings: 0 },
      ]);
      expect(await balanceOf(t.database, bob.uid, 'USDT')).toBe('1000');
    });

    it('applies the same input errors as quote', async () => {
      const cases: [unknown, number][] = [
        [{ fromCurrencyId: USDT, toCurrencyId: USDT, amount: '5' }, 1001],
        [{ fromCurrencyId: USDT, toCurrencyId: 999, amount: '5' }, 3003],
        [{ fromCurrencyId: USDT, toCurrencyId: ETH, amount: '-5' }, 1001],
        [{ fromCurrencyId: USDT, toCurrencyId: ETH, amount: '5.0000001' }, 3002],
        [{ fromCurrencyId: USDT, toCurrencyId: ETH, amount: '5', quoteId: 'x' }, 1001],
      ];
      for (const [body, code] of cases) {
        const res = await call('POST', '/api/swap/apply', { token: alice.token, key: key(), body });
        expect(res.code, JSON.stringify(body)).toBe(code);
      }
      const badKey = await call('POST', '/api/swap/apply', {
        token: alice.token,
        key: 'bad key!',
        body: { fromCurrencyId: USDT, toCurrencyId: ETH, amount: '5' },
      });
      expect(badKey.code).toBe(1001);
      const anonymous = await call('POST', '/api/swap/apply', { body: { fromCurrencyId: USDT, toCurrencyId: ETH, amount: '5' } });
      expect(anonymous.code).toBe(2001);
    });

    it('answers 2001 first without an active session (the batch resolves it), 2010 for a disabled account, and moves nothing', async () => {
      const u = await makeUser(t.database);
      await credit(t.database, u.uid, 'USDT', '100');
      const good = { fromCurrencyId: USDT, toCurrencyId: ETH, amount: '5' };
      const cases: [string, unknown, string][] = [
        ['wrong token, good body', good, key()],
        ['wrong token, bad body', { ...good, amount: '-5' }, key()],
        ['wrong token, unavailable pair', { ...good, toCurrencyId: 999 }, key()],
        ['wrong token, bad key', good, 'bad key!'],
        ['wrong token, a quote', { ...good, quoteId: 1 }, key()],
      ];
      for (const [what, body, k] of cases) {
        const res = await call('POST', '/api/swap/apply', { token: `${TOKEN_HEAD}not-a-session`, key: k, body });
        expect(res.code, what).toBe(2001);
      }
      await q(`update users set disabled_at = now() where id = $1`, [u.uid]);
      expect((await call('POST', '/api/swap/apply', { token: u.token, key: key(), body: good })).code).toBe(2010);
      expect((await call('POST', '/api/swap/apply', { token: u.token, key: key(), body: { ...good, quoteId: 1 } })).code).toBe(2010);
      await q(`update users set disabled_at = null where id = $1`, [u.uid]);
      await q(`update sessions set revoked_at = now() where user_id = $1`, [u.uid]);
      expect((await call('POST', '/api/swap/apply', { token: u.token, key: key(), body: good })).code).toBe(2001);
      expect(await balanceOf(t.database, u.uid, 'USDT')).toBe('100');
      const [n] = await q<{ n: number }>(`select count(*)::int as n from journal_entries where user_id = $1 and kind = 'swap'`, [u.uid]);
      expect(n!.n).toBe(0);
    });

    it('replays the same key and body without moving money twice; another body is 3010', async () => {
      const u = await makeUser(t.database);
      await credit(t.database, u.uid, 'USDT', '100');
      const k = key();
      const body = { fromCurrencyId: USDT, toCurrencyId: USDC, amount: '40' };
      const first = await call<SwapApplyData>('POST', '/api/swap/apply', { token: u.token, key: k, body });
      const second = await call<SwapApplyData>('POST', '/api/swap/apply', { token: u.token, key: k, body: { ...body, amount: '40.0' } });
      expect(first.code).toBe(0);
      expect(second.code).toBe(0);
      expect(second.data).toEqual({ ...first.data, replayed: true });
      expect(await balanceOf(t.database, u.uid, 'USDT')).toBe('60');
      const other = await call('POST', '/api/swap/apply', { token: u.token, key: k, body: { ...body, amount: '41' } });
      expect(other.code).toBe(3010);
      // The key is the user's own: another user may use the same key.
      await credit(t.database, bob.uid, 'USDT', '40');
      const bobs = await call<SwapApplyData>('POST', '/api/swap/apply', { token: bob.token, key: k, body });
      expect(bobs.code).toBe(0);
      expect(bobs.data.id).not.toBe(first.data.id);

      // A replay of a quoted swap answers the swap even after its quote expired.
      const quote = await call<SwapQuoteData>('POST', '/api/swap/quote', { token: u.token, body: { ...body, amount: '10' } });
      const qk = key();
      const quoted = await call<SwapApplyData>('POST', '/api/swap/apply', {
        token: u.token,
        key: qk,
        body: { ...body, amount: '10', quoteId: quote.data.quoteId },
      });
      await q(`update swap_quotes set expires_at = now() - interval '1 minute' where id = $1`, [quote.data.quoteId]);
      const replay = await call<SwapApplyData>('POST', '/api/swap/apply', {
        token: u.token,
        key: qk,
        body: { ...body, amount: '10', quoteId: quote.data.quoteId },
      });
      expect(replay.code).toBe(0);
      expect(replay.data.id).toBe(quoted.data.id);
      expect(await balanceOf(t.database, u.uid, 'USDT')).toBe('50');
    });

    it('lands concurrent twins of one key exactly once', async () => {
      const u = await makeUser(t.database);
      await credit(t.database, u.uid, 'USDT', '100');
      const k = key();
      const body = { fromCurrencyId: USDT, toCurrencyId: USDC, amount: '30' };
      const results = await Promise.all(
        Array.from({ length: 5 }, () => call<SwapApplyData>('POST', '/api/swap/apply', { token: u.token, key: k, body })),
      );
      expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0, 0]);
      expect(new Set(results.map((r) => r.data.id)).size).toBe(1);
      expect(results.filter((r) => !r.data.replayed)).toHaveLength(1);
      expect(await balanceOf(t.database, u.uid, 'USDT')).toBe('70');
    });

    it('stops at the house limit (3011) set by an operator', async () => {
      const operator = await makeUser(t.database, { role: 'operator' });
      const denied = await t.app.inject({
        method: 'POST',
        url: '/api/swap/admin/houseLimit',
        headers: { 'x-token': alice.token },
        payload: { currencyId: BTC, limit: '1' },
      });
      expect(denied.statusCode).toBe(403);
      const houseBtc = await balanceOf(t.database, null, 'BTC', 'house');
      const set = await call<{ limit: string; minBalance: string }>('POST', '/api/swap/admin/houseLimit', {
        token: operator.token,
        body: { currencyId: BTC, limit: '0.01' },
      });
      expect(set.code).toBe(0);
      expect(houseBtc).toBe('0');
      expect(set.data).toMatchObject({ limit: '0.01', balance: '0', minBalance: '-0.01' });
      // 1000 USDT ≈ 0.0166 BTC: more than the house may owe.
      const res = await call('POST', '/api/swap/apply', {
        token: alice.token,
        key: key(),
        body: { fromCurrencyId: USDT, toCurrencyId: BTC, amount: '1000' },
      });
      expect(res.code).toBe(3011);
      const fits = await call('POST', '/api/swap/apply', {
        token: alice.token,
        key: key(),
        body: { fromCurrencyId: USDT, toCurrencyId: BTC, amount: '500' },
      });
      expect(fits.code).toBe(0);
      const restore = await call('POST', '/api/swap/admin/houseLimit', { token: operator.token, body: { currencyId: BTC, limit: '25' } });
      expect(restore.code).toBe(0);
      const unknown = await call('POST', '/api/swap/admin/houseLimit', { token: operator.token, body: { currencyId: 999, limit: '1' } });
      expect(unknown.code).toBe(3003);
    });
  });

  describe('under concurrency', () => {
    it('keeps the ledger balanced: parallel swaps both ways through the same house rows, then the audit', async () => {
      const people = await Promise.all(Array.from({ length: 8 }, () => makeUser(t.database)));
      for (const p of people) {
        await credit(t.database, p.uid, 'USDT', '50');
        await credit(t.database, p.uid, 'USDC', '50');
      }
      const results = await Promise.all(
        people.flatMap((p, i) =>
          Array.from({ length: 4 }, (_, j) =>
            call('POST', '/api/swap/apply', {
              token: p.token,
              key: `concurrent-${i}-${j}`,
              // The last of each user's four asks for more than is left: some land, some get 3001.
              body: { fromCurrencyId: (i + j) % 2 ? USDT : USDC, toCurrencyId: (i + j) % 2 ? USDC : USDT, amount: j === 3 ? '45' : '20' },
            }),
          ),
        ),
      );
      expect(results.every((r) => r.code === 0 || r.code === 3001)).toBe(true);
      expect(results.filter((r) => r.code === 0).length).toBeGreaterThanOrEqual(people.length * 3);
      const report = await auditLedger(t.database);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      const [swapsWithoutEntry] = await q<{ n: number }>(
        `select count(*)::int as n from swaps s join journal_entries e on e.id = s.entry_id where e.kind <> 'swap' or e.user_id <> s.user_id`,
      );
      expect(swapsWithoutEntry!.n).toBe(0);
    });

    /** Holds the BTC house at its current balance (no further outflow) while `fn` runs. */
    const withBtcHouseAtFloor = async (fn: () => Promise<void>) => {
      const [house] = await q<{ id: number; min_balance: string | null }>(
        `select id, min_balance::text as min_balance from accounts where id = swap_system_account($1, 'house')`,
        [BTC],
      );
      await q(`update accounts set min_balance = balance where id = $1`, [house!.id]);
      try {
        await fn();
      } finally {
        await q(`update accounts set min_balance = $2::numeric where id = $1`, [house!.id, house!.min_balance]);
      }
    };

    /** Lets the USDC house pay out what it does not hold (as a house limit does). */
    const letUsdcHouseOwe = () =>
      q(`update accounts set min_balance = least(-1000000, balance) where id = swap_system_account($1, 'house')`, [USDC]);

    /** Two users with 100 USDT and one with 1, a house that may owe USDC, and a USDT -> USDC price. */
    const richAndPoor = async () => {
      const [rich1, rich2, poor] = await Promise.all([makeUser(t.database), makeUser(t.database), makeUser(t.database)]);
      await credit(t.database, rich1.uid, 'USDT', '100');
      await credit(t.database, rich2.uid, 'USDT', '100');
      await credit(t.database, poor.uid, 'USDT', '1');
      await letUsdcHouseOwe();
      const toUsdc: BatchPrice = {
        from: USDT,
        to: USDC,
        fromAmount: '10',
        toAmount: '9.98',
        fee: '0.01',
        feeCurrency: USDC,
        rate: '0.999',
      };
      return { rich1, rich2, poor, toUsdc };
    };

    /** The price of a batch item (its mid rate is `midRate`, else its rate). */
    interface BatchPrice {
      from: number;
      to: number;
      fromAmount: string;
      toAmount: string;
      fee: string;
      feeCurrency: number;
      rate: string;
      midRate?: string;
    }
    /** One item of a coffer_swap_batch() call: whose session, under which key, at which price. */
    interface BatchItem {
      token: string;
      key: string | null;
      hash: string;
      price: BatchPrice;
      quote?: string | null;
      sig?: string | null;
    }
    type BatchRow = {
      b_i: number;
      b_state: string | null;
      b_user: string | number | null;
      swap_id: string | number | null;
      replayed: boolean | null;
      key_conflict: boolean | null;
      s_entry: string | number | null;
    };
    type Query = (text: string, params?: unknown[]) => Promise<unknown[]>;
    /** coffer_swap_batch() over `items`, its rows in item order; `on` a connection of its own, else the pool. */
    const runBatch = async (items: BatchItem[], on: Query = q) =>
      (await on(
        `select * from coffer_swap_batch($1::text[], $2::text[], $3::text[], $4::bigint[], $5::integer[], $6::integer[],
           $7::numeric[], $8::numeric[], $9::numeric[], $10::integer[], $11::numeric[], $12::numeric[], $13::integer[],
           $14::integer[], $15::text[]) order by b_i`,
        [
          items.map((i) => i.token),
          items.map((i) => i.key),
          items.map((i) => i.hash),
          items.map((i) => i.quote ?? null),
          items.map((i) => i.price.from),
          items.map((i) => i.price.to),
          items.map((i) => i.price.fromAmount),
          items.map((i) => i.price.toAmount),
          items.map((i) => i.price.fee),
          items.map((i) => i.price.feeCurrency),
          items.map((i) => i.price.rate),
          items.map((i) => i.price.midRate ?? i.price.rate),
          items.map(() => 10),
          items.map(() => 10),
          items.map((i) => i.sig ?? null),
        ],
      )) as BatchRow[];

    it('group commit: refused items of one batch roll back alone, the others commit together', async () => {
      const { rich1, rich2, poor, toUsdc } = await richAndPoor();
      const toBtc: BatchPrice = {
        from: USDT,
        to: BTC,
        fromAmount: '10',
        toAmount: '0.00016616',
        fee: '0.00000017',
        feeCurrency: BTC,
        rate: '0.0000166',
      };
      const k1 = key();
      const items = [
        { token: tokenHashOf(rich1), key: k1, hash: 'h1', price: toUsdc }, // done
        { token: tokenHashOf(poor), key: key(), hash: 'h2', price: toUsdc }, // 3001
        { token: tokenHashOf(rich2), key: key(), hash: 'h3', price: toBtc }, // 3011 (BTC house at its floor)
        { token: tokenHashOf(rich2), key: key(), hash: 'h4', price: toUsdc }, // done
        { token: tokenHashOf(rich1), key: k1, hash: 'h1', price: toUsdc }, // replay of the first item
        { token: tokenHashOf(rich1), key: k1, hash: 'other', price: toUsdc }, // same key, another request: 3010
      ];
      let rows: BatchRow[] = [];
      await withBtcHouseAtFloor(async () => {
        rows = await runBatch(items);
      });
      expect(rows.map((r) => r.b_state)).toEqual([null, 'CB001', 'CB011', null, null, null]);
      const [first, , , fourth, replay, reused] = rows;
      expect(first).toMatchObject({ replayed: false, key_conflict: false });
      expect(fourth).toMatchObject({ replayed: false, key_conflict: false });
      expect(first!.s_entry).not.toBeNull();
      expect(replay!.s_entry).toBeNull();
      expect(Number(replay!.swap_id)).toBe(Number(first!.swap_id));
      expect(replay).toMatchObject({ replayed: true, key_conflict: false });
      expect(reused).toMatchObject({ swap_id: null, replayed: true, key_conflict: true });
      // Both done items committed in the same transaction (now() is the transaction's start).
      const done = await q<{ created_at: string }>(`select created_at::text as created_at from swaps where id in ($1, $2)`, [
        first!.swap_id,
        fourth!.swap_id,
      ]);
      expect(done).toHaveLength(2);
      expect(done[0]!.created_at).toBe(done[1]!.created_at);
      expect(await balanceOf(t.database, rich1.uid, 'USDT')).toBe('90');
      expect(await balanceOf(t.database, rich1.uid, 'USDC')).toBe('9.98');
      expect(await balanceOf(t.database, rich2.uid, 'USDT')).toBe('90');
      expect(await balanceOf(t.database, rich2.uid, 'BTC')).toBe('0');
      expect(await balanceOf(t.database, poor.uid, 'USDT')).toBe('1');
      const [left] = await q<{ n: number }>(
        `select count(*)::int as n from journal_entries where kind = 'swap' and user_id = any($1::bigint[]) and refusal is null`,
        [[rich1.uid, rich2.uid, poor.uid]],
      );
      expect(left!.n).toBe(2);
      // The two refused items are kept under their keys (decision 012), the reused key is not.
      const refused = await q<{ refusal: string }>(
        `select refusal from journal_entries where user_id = any($1::bigint[]) and refusal is not null order by id`,
        [[rich1.uid, rich2.uid, poor.uid]],
      );
      expect(refused.map((r) => r.refusal)).toEqual(['CB001', 'CB011']);
      const report = await auditLedger(t.database);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    });

    it('group commit over the API: concurrent swaps with refused ones answer 3001 / 3011, the rest land, audit passes', async () => {
      const people = await Promise.all(Array.from({ length: 6 }, () => makeUser(t.database)));
      for (const p of people) await credit(t.database, p.uid, 'USDT', '30');
      await letUsdcHouseOwe();
      const btcBefore = await Promise.all(people.map((p) => balanceOf(t.database, p.uid, 'BTC')));
      let results: { uid: number; token: string; kind: 'usdc' | 'btc'; code: number; data: SwapApplyData }[] = [];
      await withBtcHouseAtFloor(async () => {
        results = await Promise.all(
          people.flatMap((p, i) => [
            // Two of 20 from 30: one lands, the other is 3001 (whichever the batch runs second).
            ...[0, 1].map(async (j) => {
              const res = await call<SwapApplyData>('POST', '/api/swap/apply', {
                token: p.token,
                key: `group-${i}-${j}`,
                body: { fromCurrencyId: USDT, toCurrencyId: USDC, amount: '20' },
              });
              return { uid: p.uid, token: p.token, kind: 'usdc' as const, code: res.code, data: res.data };
            }),
            (async () => {
              const res = await call<SwapApplyData>('POST', '/api/swap/apply', {
                token: p.token,
                key: `group-${i}-btc`,
                body: { fromCurrencyId: USDT, toCurrencyId: BTC, amount: '5' },
              });
              return { uid: p.uid, token: p.token, kind: 'btc' as const, code: res.code, data: res.data };
            })(),
          ]),
        );
      });
      for (const p of people) {
        const usdc = results.filter((r) => r.uid === p.uid && r.kind === 'usdc').map((r) => r.code);
        expect(usdc.sort()).toEqual([0, 3001]);
        expect(results.find((r) => r.uid === p.uid && r.kind === 'btc')!.code).toBe(3011);
        expect(await balanceOf(t.database, p.uid, 'USDT')).toBe('10');
      }
      expect(await Promise.all(people.map((p) => balanceOf(t.database, p.uid, 'BTC')))).toEqual(btcBefore);
      for (const r of results.filter((x) => x.code === 0)) await expectStored(r.data, r.token);
      const report = await auditLedger(t.database);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    });

    it('set-based batch: clean swaps, a quote, a refusal, no session, twins, a used quote and a changed pair in one statement', async () => {
      const { rich1, rich2, poor, toUsdc } = await richAndPoor();
      const [quote] = await q<{ id: string }>(
        `insert into swap_quotes (user_id, from_currency_id, to_currency_id, from_amount, to_amount, rate, mid_rate,
                                  spread_bps, fee_bps, fee, fee_currency_id, expires_at)
         values ($1, $2, $3, 10, 9.98, 0.999, 1, 10, 10, 0.01, $3, now() + interval '1 minute') returning id`,
        [rich2.uid, USDT, USDC],
      );
      const k1 = key();
      const [kPoor, kQuote, kUsed, kStale] = [key(), key(), key(), key()];
      const price = { ...toUsdc, midRate: '1' };
      const items: BatchItem[] = [
        { token: tokenHashOf(rich1), key: k1, hash: 'h1', price }, // 1 done
        { token: tokenHashOf(poor), key: kPoor, hash: 'h2', price }, // 2 3001, kept
        { token: hashToken('no such session'), key: key(), hash: 'h3', price }, // 3 AUTH
        { token: tokenHashOf(rich1), key: k1, hash: 'h1', price }, // 4 twin of 1: its replay
        { token: tokenHashOf(rich2), key: kQuote, hash: 'h5', price, quote: quote!.id }, // 5 done with the quote
        { token: tokenHashOf(rich2), key: kUsed, hash: 'h6', price, quote: quote!.id }, // 6 the same quote again: 3006, kept
        { token: tokenHashOf(rich2), key: kStale, hash: 'h7', price, sig: 'not the pair any more' }, // 7 PAIR
        { token: tokenHashOf(rich2), key: null, hash: 'h8', price }, // 8 done, no key
      ];
      const rows = await runBatch(items);
      expect(rows.map((r) => r.b_state)).toEqual([null, 'CB001', 'AUTH', null, null, 'CB006', 'PAIR', null]);
      expect(rows.map((r) => (r.b_user === null ? null : Number(r.b_user)))).toEqual([
        rich1.uid,
        poor.uid,
        null,
        rich1.uid,
        rich2.uid,
        rich2.uid,
        rich2.uid,
        rich2.uid,
      ]);
      const [first, , , twin, quoted, , , noKey] = rows;
      expect(first).toMatchObject({ replayed: false });
      expect(twin).toMatchObject({ replayed: true, s_entry: null });
      expect(Number(twin!.swap_id)).toBe(Number(first!.swap_id));
      expect(quoted!.s_entry).not.toBeNull();
      expect(noKey!.s_entry).not.toBeNull();
      const [used] = await q<{ used: boolean; swap_quote: string }>(
        `select q.used_at is not null as used, s.quote_id::text as swap_quote from swap_quotes q join swaps s on s.quote_id = q.id
          where q.id = $1`,
        [quote!.id],
      );
      expect(used).toEqual({ used: true, swap_quote: String(quote!.id) });
      expect(await balanceOf(t.database, rich1.uid, 'USDT')).toBe('90');
      expect(await balanceOf(t.database, rich1.uid, 'USDC')).toBe('9.98');
      expect(await balanceOf(t.database, rich2.uid, 'USDT')).toBe('80');
      expect(await balanceOf(t.database, rich2.uid, 'USDC')).toBe('19.96');
      expect(await balanceOf(t.database, poor.uid, 'USDT')).toBe('1');
      // Refusals kept under their keys; the changed pair's key is left free (nothing of it ran).
      const byKey = await q<{ idempotency_key: string; refusal: string | null }>(
        `select idempotency_key, refusal from journal_entries where idempotency_key = any($1::text[]) order by idempotency_key`,
        [[kPoor, kUsed, kStale]],
      );
      expect(Object.fromEntries(byKey.map((r) => [r.idempotency_key, r.refusal]))).toEqual({ [kPoor]: 'CB001', [kUsed]: 'CB006' });
      // Each clean swap is one balanced entry of five postings with balance_after in order.
      for (const r of [first!, quoted!, noKey!]) {
        const [sum] = await q<{ n: number; zero: boolean }>(
          `select count(*)::int as n, bool_and(s = 0) as zero
             from (select sum(amount) as s from postings where entry_id = $1 group by currency_id) x`,
          [r.s_entry],
        );
        expect(sum).toEqual({ n: 2, zero: true });
      }
      const report = await auditLedger(t.database);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    });

    it('looks rows up by key: a batch reads a few rows of sessions, users and accounts, however many users there are', async () => {
      const { rich1, rich2, toUsdc } = await richAndPoor();
      // On PostgreSQL a connection of its own keeps the function's plans, as a writer's lane does
      // (PGlite has one connection).
      const own = await t.database.dedicated?.();
      const on: Query = own ? async (text, params) => (await own.query(text, params)).rows : q;
      try {
        // The plans are made here, on small tables without statistics (a fresh database).
        expect((await runBatch([{ token: tokenHashOf(rich1), key: key(), hash: 'h0', price: toUsdc }], on))[0]).toMatchObject({
          b_state: null,
        });
        // Then 1,000 more users, each with a session and an available account in every currency.
        await q(
          `with u as (insert into users (email, password_hash, nickname)
                      select 'bulk-' || g || '-' || $1 || '@test.coffer', 'test-user-no-password', 'bulk'
                      from generate_series(1, 1000) g returning id),
                s as (insert into sessions (user_id, token_hash, expires_at)
                      select u.id, 'bulk-' || u.id || '-' || $1, now() + interval '1 day' from u)
           insert into accounts (user_id, currency_id, kind) select u.id, c.id, 'available' from u cross join currencies c`,
          [key()],
        );
        // The rows this connection has read per table (its counts not yet flushed to the
        // statistics, which a transaction never is), before and after the batch.
        const readsSoFar = async () =>
          Object.fromEntries(
            (
              (await on(
                `select relname, (seq_tup_read + idx_tup_fetch)::int as n
                   from pg_stat_xact_user_tables where relname in ('sessions', 'users', 'accounts')`,
              )) as { relname: string; n: number }[]
            ).map((r) => [r.relname, r.n]),
          );
        await on('begin');
        let before: Record<string, number>;
        let rows: BatchRow[];
        let after: Record<string, number>;
        try {
          before = await readsSoFar();
          rows = await runBatch(
            [
              { token: tokenHashOf(rich1), key: key(), hash: 'h1', price: toUsdc },
              { token: tokenHashOf(rich2), key: key(), hash: 'h2', price: toUsdc },
            ],
            on,
          );
          after = await readsSoFar();
          await on('commit');
        } catch (e) {
          // Never hand a connection back inside a transaction.
          await on('rollback');
          throw e;
        }
        const n = Object.fromEntries(Object.entries(after).map(([table, count]) => [table, count - (before[table] ?? 0)]));
        expect(rows.map((r) => r.b_state)).toEqual([null, null]);
        // Two items: their two sessions and users, their four accounts and the house's and fees'
        // (a plan that joins by scanning read thousands).
        expect(Object.keys(n).sort()).toEqual(['accounts', 'sessions', 'users']);
        expect(n.accounts).toBeGreaterThan(0);
        expect(n.accounts).toBeLessThan(40);
        expect(n.sessions).toBeGreaterThan(0);
        expect(n.sessions).toBeLessThan(10);
        expect(n.users).toBeGreaterThan(0);
        expect(n.users).toBeLessThan(10);
      } finally {
        own?.release();
      }
    });

    it("prices from the process's copy of a pair, but a change applies at once: a new rate, a disabled pair, a lower minimum", async () => {
      const u = await makeUser(t.database);
      await credit(t.database, u.uid, 'USDT', '1000');
      await letUsdcHouseOwe();
      const swap = (amount: string) =>
        call<SwapApplyData>('POST', '/api/swap/apply', {
          token: u.token,
          key: key(),
          body: { fromCurrencyId: USDT, toCurrencyId: USDC, amount },
        });
      const pair = `from_currency_id = $1 and to_currency_id = $2`;
      const [before] = await q<{ mid_rate: string; min_amount: string | null }>(
        `select mid_rate::text as mid_rate, min_amount::text as min_amount from swap_pairs where ${pair}`,
        [USDT, USDC],
      );
      try {
        expect((await swap('10')).data).toMatchObject({ midRate: '1', rate: '0.999' });
        // Changed behind the copy's back (no updated_at): the next swap still gets the new rate.
        await q(`update swap_pairs set mid_rate = 0.5 where ${pair}`, [USDT, USDC]);
        expect((await swap('10')).data).toMatchObject({ midRate: '0.5', rate: '0.4995', replayed: false });
        await q(`update swap_pairs set enabled = false where ${pair}`, [USDT, USDC]);
        expect((await swap('10')).code).toBe(3003);
        await q(`update swap_pairs set enabled = true, mid_rate = $3::numeric where ${pair}`, [USDT, USDC, before!.mid_rate]);
        expect((await swap('10')).data).toMatchObject({ midRate: '1', rate: '0.999' });
        // The copy would refuse 10 under a minimum of 100; the minimum is lowered: the swap lands.
        await q(`update swap_pairs set min_amount = 100 where ${pair}`, [USDT, USDC]);
        expect((await swap('10')).code).toBe(3002);
        expect((await swap('100')).code).toBe(0);
        await q(`update swap_pairs set min_amount = $3::numeric where ${pair}`, [USDT, USDC, before!.min_amount]);
        expect((await swap('10')).code).toBe(0);
      } finally {
        await q(`update swap_pairs set enabled = true, mid_rate = $3::numeric, min_amount = $4::numeric where ${pair}`, [
          USDT,
          USDC,
          before!.mid_rate,
          before!.min_amount,
        ]);
      }
      const report = await auditLedger(t.database);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    });
  });

  describe('swap records', () => {
    it('pages the user own swaps newest first, with filters', async () => {
      const u = await makeUser(t.database);
      await credit(t.database, u.uid, 'USDT', '1000');
      const ids: number[] = [];
      for (const [to, amount] of [
        [USDC, '10'],
        [ETH, '20'],
        [USDC, '30'],
      ] as const) {
        const r = await call<SwapApplyData>('POST', '/api/swap/apply', {
          token: u.token,
          key: key(),
          body: { fromCurrencyId: USDT, toCurrencyId: to, amount },
        });
        ids.push(r.data.id);
      }
      const all = await call<SwapRecordPage>('POST', '/api/swap/swapRecordPage', { token: u.token, body: { page: 1, pageSize: 2 } });
      expect(all.code).toBe(0);
      expect(all.data.total).toBe(3);
      expect(all.data.list.map((s) => s.id)).toEqual([ids[2], ids[1]]);
      const page2 = await call<SwapRecordPage>('POST', '/api/swap/swapRecordPage', { token: u.token, body: { page: 2, pageSize: 2 } });
      expect(page2.data.list.map((s) => s.id)).toEqual([ids[0]]);
      const toEth = await call<SwapRecordPage>('POST', '/api/swap/swapRecordPage', { token: u.token, body: { toCurrencyId: ETH } });
      expect(toEth.data.list.map((s) => s.fromAmount)).toEqual(['20']);
      const either = await call<SwapRecordPage>('POST', '/api/swap/swapRecordPage', { token: u.token, body: { currencyId: USDC } });
      expect(either.data.total).toBe(2);
      const future = await call<SwapRecordPage>('POST', '/api/swap/swapRecordPage', {
        token: u.token,
        body: { from: new Date(Date.now() + 60_000).toISOString() },
      });
      expect(future.data.total).toBe(0);
      const window = await call<SwapRecordPage>('POST', '/api/swap/swapRecordPage', {
        token: u.token,
        body: { from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() },
      });
      expect(window.data.total).toBe(3);
      const bad = await call('POST', '/api/swap/swapRecordPage', { token: u.token, body: { pageSize: 101 } });
      expect(bad.code).toBe(1001);
      const badTime = await call('POST', '/api/swap/swapRecordPage', { token: u.token, body: { from: 'yesterday' } });
      expect(badTime.code).toBe(1001);

      const one = await call<SwapRecord>('GET', `/api/swap/${ids[1]}`, { token: u.token });
      expect(one.code).toBe(0);
      expect(one.data).toMatchObject({ id: ids[1], toCurrency: 'ETH', fromAmount: '20' });
      const others = await call('GET', `/api/swap/${ids[1]}`, { token: bob.token });
      expect(others).toMatchObject({ code: 4004, data: null });
      const missing = await call('GET', '/api/swap/99999999', { token: u.token });
      expect(missing.code).toBe(4004);
      const notId = await call('GET', '/api/swap/abc', { token: u.token });
      expect(notId.code).toBe(1001);
      const anonymous = await call('GET', `/api/swap/${ids[1]}`);
      expect(anonymous.code).toBe(2001);
    });
  });
});

describe('house limits from configuration', () => {
  it('applies HOUSE_LIMITS at start', async () => {
    const t = await createTestApp({ HOUSE_LIMITS: 'usdt=5,ETH=0.5,NOPE=1' });
    try {
      const rows = await t.database.sql.query<{ code: string; min_balance: string }>(
        `select c.code, a.min_balance::text as min_balance from accounts a join currencies c on c.id = a.currency_id
          where a.kind = 'house' and a.user_id is null order by c.code`,
      );
      const floors = Object.fromEntries(rows.map((r) => [r.code, plain(r.min_balance)]));
      expect(floors).toEqual({ BTC: '0', ETH: '-0.5', LTC: '0', USDC: '0', USDT: '-5' });
      const u = await makeUser(t.database);
      await credit(t.database, u.uid, 'ETH', '1');
      const res = await client(t)('POST', '/api/swap/apply', {
        token: u.token,
        key: 'house-limit-config-1',
        body: { fromCurrencyId: await currencyId(t.database, 'ETH'), toCurrencyId: await currencyId(t.database, 'USDT'), amount: '0.01' },
      });
      expect(res.code).toBe(3011);
    } finally {
      await t.close();
    }
  });
});
