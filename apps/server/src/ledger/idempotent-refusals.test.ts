import type { Balance, Network, SwapApplyData, TransferResult } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { applyWithdraw } from '../test/withdraw.ts';
import { client, createUser, fund, type TestUser } from '../test/users.ts';
import { auditLedger } from './audit.ts';
import { invalidateCurrencies } from './currencies.ts';

/**
 * A key's first final answer is its answer forever (decision 012), refusals included: a
 * request refused by the ledger (3001, 3002, 3004, 3009, ...) and sent again with the same
 * Idempotency-Key and body answers the same refusal and moves nothing, even once it would
 * succeed; the same key with another body is 3010. Answers given before the ledger was
 * reached (1001, 2001, 2004) are not kept.
 */
describe('refusals are kept under their Idempotency-Key', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let seq = 0;
  const key = () => `refusal-${++seq}-${Date.now()}`;
  const cur: Record<string, number> = {};
  const outside = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
  let eth: Network;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    const list = await call<{ id: number; code: string }[]>('GET', '/api/currency/list');
    for (const c of list.data) cur[c.code] = c.id;
    eth = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  const balance = async (u: TestUser, code: string) =>
    (await call<Balance>('GET', `/api/currency/balance/${cur[code]}`, { token: u.token })).data;
  const count = async (table: string) =>
    Number((await t.database.sql.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n);

  describe('transfers', () => {
    const byEmail = (u: TestUser, body: Record<string, unknown>, k?: string) =>
      call<TransferResult>('POST', '/api/transfer/transferByEmail', { token: u.token, body, ...(k && { key: k }) });
    const byUid = (u: TestUser, body: Record<string, unknown>, k?: string) =>
      call<TransferResult>('POST', '/api/transfer/transferByUID', { token: u.token, body, ...(k && { key: k }) });

    it('by e-mail: 3001 stays 3001 after funding, another body is 3010, a fresh key succeeds', async () => {
      const [alice, bob] = [await createUser(t), await createUser(t)];
      await fund(t, alice.uid, 'USDT', '5');
      const k = key();
      const body = { email: bob.email, currencyId: cur.USDT, amount: '10' };
      expect((await byEmail(alice, body, k)).code).toBe(3001);
      await fund(t, alice.uid, 'USDT', '100');
      const transfersBefore = await count('transfers');

      const again = await byEmail(alice, body, k);
      expect([again.code, again.data]).toEqual([3001, null]);
      expect((await byEmail(alice, { ...body, email: bob.email.toUpperCase() }, k)).code).toBe(3001); // same request
      expect((await byEmail(alice, { ...body, amount: '11' }, k)).code).toBe(3010);
      expect((await byUid(alice, { uid: bob.uid, currencyId: cur.USDT, amount: '10' }, k)).code).toBe(3010);
      expect(await count('transfers')).toBe(transfersBefore);
      expect((await balance(alice, 'USDT')).available).toBe('105');
      expect((await balance(bob, 'USDT')).available).toBe('0');

      const fresh = await byEmail(alice, body, key());
      expect(fresh).toMatchObject({ code: 0, data: { amount: '10', replayed: false } });
      expect((await balance(alice, 'USDT')).available).toBe('95');
      expect((await byEmail(alice, body, k)).code).toBe(3001);
    });

    it('by uid: 3001, 3004 and 3005 are kept; concurrent twins of a refusal both hear it', async () => {
      const [alice, bob] = [await createUser(t), await createUser(t)];
      const k1 = key();
      const body = { uid: bob.uid, currencyId: cur.USDT, amount: '1' };
      const twins = await Promise.all([byUid(alice, body, k1), byUid(alice, body, k1)]);
      expect(twins.map((r) => r.code)).toEqual([3001, 3001]);

      const k4 = key();
      const nobody = { uid: 2_000_000_000, currencyId: cur.USDT, amount: '1' };
      expect((await byUid(alice, nobody, k4)).code).toBe(3004);
      const k5 = key();
      const self = { uid: alice.uid, currencyId: cur.USDT, amount: '1' };
      expect((await byUid(alice, self, k5)).code).toBe(3005);

      await fund(t, alice.uid, 'USDT', '50');
      expect((await byUid(alice, body, k1)).code).toBe(3001);
      expect((await byUid(alice, nobody, k4)).code).toBe(3004);
      expect((await byUid(alice, self, k5)).code).toBe(3005);
      expect((await byUid(alice, { ...body, amount: '2' }, k1)).code).toBe(3010);
      expect((await byUid(alice, body, k4)).code).toBe(3010);
      expect((await balance(alice, 'USDT')).available).toBe('50');
      expect((await byUid(alice, body, key())).code).toBe(0);
    });

    it('a refusal from a currency limit (3002) is kept after the limit is lifted', async () => {
      const [alice, bob] = [await createUser(t), await createUser(t)];
      await fund(t, alice.uid, 'USDC', '100');
      await t.database.sql.query('update currencies set transfer_max = 5 where id = $1', [cur.USDC]);
      invalidateCurrencies(t.database);
      const k = key();
      const body = { uid: bob.uid, currencyId: cur.USDC, amount: '10' };
      try {
        expect((await byUid(alice, body, k)).code).toBe(3002);
      } finally {
        await t.database.sql.query('update currencies set transfer_max = null where id = $1', [cur.USDC]);
        invalidateCurrencies(t.database);
      }
      expect((await byUid(alice, body, k)).code).toBe(3002);
      expect((await balance(alice, 'USDC')).available).toBe('100');
      expect((await byUid(alice, body, key())).code).toBe(0);
    });

    it('does not keep answers given before the ledger (1001, 2001)', async () => {
      const [alice, bob] = [await createUser(t), await createUser(t)];
      await fund(t, alice.uid, 'USDT', '10');
      const k = key();
      const bad = await byUid(alice, { uid: bob.uid, currencyId: cur.USDT, amount: '1.2.3' }, k);
      expect(bad.code).toBe(1001);
      const anonymous = await call('POST', '/api/transfer/transferByUID', {
        key: k,
        body: { uid: bob.uid, currencyId: cur.USDT, amount: '1' },
      });
      expect(anonymous.code).toBe(2001);
      const ok = await byUid(alice, { uid: bob.uid, currencyId: cur.USDT, amount: '1' }, k);
      expect(ok).toMatchObject({ code: 0, data: { replayed: false } });
    });

    it('the batch keeps a refusal in the statement that refused it, twins in one batch included', async () => {
      const [alice, bob] = [await createUser(t), await createUser(t)];
      const tokenHash = (
        await t.database.sql.query<{ token_hash: string }>('select token_hash from sessions where user_id = $1', [alice.uid])
      )[0]!.token_hash;
      const k = key();
      const rows = await t.database.sql.query<{ b_i: number; b_state: string | null }>(
        `select b_i, b_state from coffer_transfer_batch($1, $2, $3, $4, $5::numeric[], $6, $7, $8) order by b_i`,
        [
          [tokenHash, tokenHash, tokenHash],
          [bob.uid, bob.uid, bob.uid],
          [null, null, null],
          [cur.USDT, cur.USDT, cur.USDT],
          ['3', '3', '4'],
          [null, null, null],
          [k, k, k],
          ['hash-a', 'hash-a', 'hash-b'],
        ],
      );
      expect(rows.map((r) => r.b_state)).toEqual(['CB001', 'CB001', 'CB010']);
      const [entry] = await t.database.sql.query<{ refusal: string; postings: number }>(
        `select e.refusal, (select count(*)::int from postings p where p.entry_id = e.id) as postings
           from journal_entries e where e.user_id = $1 and e.idempotency_key = $2`,
        [alice.uid, k],
      );
      expect(entry).toEqual({ refusal: 'CB001', postings: 0 });
    });
  });

  it('concurrent batches racing for the keys of refused transfers agree on one refusal per key', async () => {
    // Items to an unknown recipient lock no account, so batches on other connections (another
    // API process) reach the same key at once; whoever keeps the refusal first, every batch
    // answers it, or 40001 (run again) when it lost the race.
    const alice = await createUser(t);
    const tokenHash = (
      await t.database.sql.query<{ token_hash: string }>('select token_hash from sessions where user_id = $1', [alice.uid])
    )[0]!.token_hash;
    const keys = Array.from({ length: 5 }, key);
    const batch = () =>
      t.database.sql.query<{ b_i: number; b_state: string | null }>(
        `select b_i, b_state from coffer_transfer_batch($1, $2, $3, $4, $5::numeric[], $6, $7, $8) order by b_i`,
        [
          keys.map(() => tokenHash),
          keys.map(() => 2_000_000_001),
          keys.map(() => null),
          keys.map(() => cur.USDT),
          keys.map(() => '1'),
          keys.map(() => null),
          keys,
          keys.map(() => 'same-request'),
        ],
      );
    const racing = await Promise.all(Array.from({ length: 8 }, batch));
    for (const rows of racing) for (const r of rows) expect(['CB004', '40001']).toContain(r.b_state);
    expect((await batch()).map((r) => r.b_state)).toEqual(keys.map(() => 'CB004'));
    const [kept] = await t.database.sql.query<{ n: number }>(
      'select count(*)::int as n from journal_entries where user_id = $1 and refusal is not null',
      [alice.uid],
    );
    expect(kept!.n).toBe(keys.length);
  });

  it('ledger_keep_refusal: keeps once, hears its own refusal again, and yields to another answer (40001)', async () => {
    const u = await createUser(t);
    const keep = async (k: string, hash: string, state: string) =>
      (
        await t.database.sql.query<{ a: string }>(`select ledger_keep_refusal('transfer', $1, $2, $3, $4) as a`, [u.uid, k, hash, state])
      )[0]!.a;
    const k = key();
    expect(await keep(k, 'h', 'CB001')).toBe('CB001');
    expect(await keep(k, 'h', 'CB001')).toBe('CB001'); // the same refusal again: a replay
    expect(await keep(k, 'other', 'CB001')).toBe('40001'); // another request's answer holds the key
    expect(await keep(k, 'h', 'CB004')).toBe('40001');
    expect(await keep(key(), 'h', 'CB010')).toBe('CB010'); // not a kept refusal: nothing stored
    expect(await keep(key(), 'h', '40P01')).toBe('40P01');
    const [n] = await t.database.sql.query<{ n: number }>('select count(*)::int as n from journal_entries where user_id = $1', [u.uid]);
    expect(n!.n).toBe(1);
  });

  describe('swaps', () => {
    const swap = (u: TestUser, body: Record<string, unknown>, k: string) =>
      call<SwapApplyData>('POST', '/api/swap/apply', { token: u.token, key: k, body });

    it('3001 stays 3001 after funding, another body is 3010, a fresh key succeeds', async () => {
      const u = await createUser(t);
      await fund(t, u.uid, 'USDT', '1');
      const k = key();
      const body = { fromCurrencyId: cur.USDT, toCurrencyId: cur.USDC, amount: '10' };
      expect((await swap(u, body, k)).code).toBe(3001);
      await fund(t, u.uid, 'USDT', '100');
      const swapsBefore = await count('swaps');

      const again = await swap(u, body, k);
      expect([again.code, again.data]).toEqual([3001, null]);
      expect((await swap(u, { ...body, amount: '10.0' }, k)).code).toBe(3001); // the same request
      expect((await swap(u, { ...body, amount: '11' }, k)).code).toBe(3010);
      expect(await count('swaps')).toBe(swapsBefore);
      expect((await balance(u, 'USDT')).available).toBe('101');
      expect((await balance(u, 'USDC')).available).toBe('0');

      const fresh = await swap(u, body, key());
      expect(fresh).toMatchObject({ code: 0, data: { fromAmount: '10', replayed: false } });
      expect((await swap(u, body, k)).code).toBe(3001);
    });

    it('a refusal before the ledger (3002 pair bounds) is kept once the request was a valid one', async () => {
      const u = await createUser(t);
      await fund(t, u.uid, 'USDT', '100');
      await t.database.sql.query('update swap_pairs set max_amount = 5 where from_currency_id = $1 and to_currency_id = $2', [
        cur.USDT,
        cur.USDC,
      ]);
      const k = key();
      const body = { fromCurrencyId: cur.USDT, toCurrencyId: cur.USDC, amount: '10' };
      try {
        expect((await swap(u, body, k)).code).toBe(3002);
      } finally {
        await t.database.sql.query('update swap_pairs set max_amount = null where from_currency_id = $1 and to_currency_id = $2', [
          cur.USDT,
          cur.USDC,
        ]);
      }
      expect((await swap(u, body, k)).code).toBe(3002);
      expect((await swap(u, { ...body, amount: '9' }, k)).code).toBe(3010);
      expect((await balance(u, 'USDT')).available).toBe('100');
      // 1001 (same currency on both sides) is not kept.
      const k2 = key();
      expect((await swap(u, { ...body, toCurrencyId: cur.USDT }, k2)).code).toBe(1001);
      expect((await swap(u, body, k2)).code).toBe(0);
    });
  });

  describe('withdrawals', () => {
    const codeFor = async (u: TestUser) => {
      await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
      const sent = await call('GET', `/api/sendMail?email=${encodeURIComponent(u.email)}&type=withdraw`, { token: u.token });
      expect(sent.code).toBe(0);
      return t.mailbox.lastCode(u.email);
    };
    const apply = (u: TestUser, body: Record<string, unknown>, code: string, k?: string) =>
      applyWithdraw(call, {
        token: u.token,
        ...(k && { key: k }),
        body: { currencyId: eth.currencyId, networkId: eth.id, address: outside, amount: '1', code, ...body },
      });

    it('3001 after the code is kept (no new code needed to hear it again); the code stays usable', async () => {
      const u = await createUser(t);
      await fund(t, u.uid, 'ETH', '0.5');
      const code = await codeFor(u);
      const k = key();
      expect((await apply(u, { amount: '1' }, code, k)).code).toBe(3001);
      await fund(t, u.uid, 'ETH', '10');

      const again = await apply(u, { amount: '1' }, '000000', k);
      expect([again.code, again.data]).toEqual([3001, null]);
      expect((await apply(u, { amount: '2' }, '000000', k)).code).toBe(3010);
      expect(await balance(u, 'ETH')).toMatchObject({ available: '10.5', frozen: '0' });

      // The refusal did not use up the code: a fresh key with it succeeds.
      const fresh = await apply(u, { amount: '1' }, code, key());
      expect(fresh).toMatchObject({ code: 0, data: { amount: '1', replayed: false } });
      expect((await apply(u, { amount: '1' }, '000000', k)).code).toBe(3001);
    });

    it('concurrent twins of a refused withdrawal all hear the refusal', async () => {
      const u = await createUser(t);
      await fund(t, u.uid, 'ETH', '0.5');
      const code = await codeFor(u);
      const k = key();
      const twins = await Promise.all(Array.from({ length: 4 }, () => apply(u, { amount: '1' }, code, k)));
      expect(twins.map((r) => r.code)).toEqual([3001, 3001, 3001, 3001]);
      expect((await apply(u, { amount: '0.4' }, code, key())).code).toBe(0);
    });

    it('3009 (daily limit) is kept after the limit is raised; a wrong code (2004) is not kept', async () => {
      const u = await createUser(t);
      await fund(t, u.uid, 'ETH', '10');
      const k = key();
      expect((await apply(u, { amount: '1' }, '000000', k)).code).toBe(2004);
      await t.database.sql.query('update networks set daily_withdraw_limit = 0.5 where id = $1', [eth.id]);
      try {
        expect((await apply(u, { amount: '1' }, await codeFor(u), k)).code).toBe(3009);
      } finally {
        await t.database.sql.query('update networks set daily_withdraw_limit = 200 where id = $1', [eth.id]);
      }
      expect((await apply(u, { amount: '1' }, '000000', k)).code).toBe(3009);
      expect(await balance(u, 'ETH')).toMatchObject({ available: '10', frozen: '0' });
      expect((await apply(u, { amount: '1' }, await codeFor(u), key())).code).toBe(0);
    });
  });
});
