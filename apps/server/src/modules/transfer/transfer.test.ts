import type { Balance, Recipient, TransferRecord, TransferResult } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../core/session.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { invalidateCurrencies } from '../../ledger/currencies.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { type BatchItem, transferBatcher } from './batcher.ts';

type Page = { list: TransferRecord[]; total: number; page: number; pageSize: number };

describe('transfers', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let usdt: number;
  let btc: number;
  let eth: number;
  let keySeq = 0;
  const nextKey = () => `test-key-${++keySeq}-${Date.now()}`;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    alice = await createUser(t, { email: 'alice@example.com', nickname: 'Alice' });
    bob = await createUser(t, { email: 'bob@example.com', nickname: 'Bob', avatar: 'preset:3' });
    carol = await createUser(t, { email: 'carol@example.com', nickname: 'Carol' });
    dave = await createUser(t, { email: 'dave@example.com', nickname: 'Dave' });
    const list = await call<{ id: number; code: string }[]>('GET', '/api/currency/list');
    const idOf = (code: string) => list.data.find((c) => c.code === code)!.id;
    usdt = idOf('USDT');
    btc = idOf('BTC');
    eth = idOf('ETH');
    await fund(t, alice.uid, 'USDT', '100');
    await fund(t, alice.uid, 'BTC', '1');
    await fund(t, dave.uid, 'USDT', '50');
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  const balanceOf = async (u: TestUser, currencyId: number) =>
    (await call<Balance>('GET', `/api/currency/balance/${currencyId}`, { token: u.token })).data.available;
  const send = (u: TestUser, body: Record<string, unknown>, opts: { key?: string; lang?: string } = {}) =>
    call<TransferResult>('POST', '/api/transfer/transferByEmail', { token: u.token, body, ...opts });
  const sendUid = (u: TestUser, body: Record<string, unknown>, opts: { key?: string; lang?: string } = {}) =>
    call<TransferResult>('POST', '/api/transfer/transferByUID', { token: u.token, body, ...opts });
  const countTransfers = async () => Number((await t.database.sql.query<{ n: number }>('select count(*) as n from transfers'))[0]!.n);

  let firstId = 0;

  it('sends by e-mail and by uid; both sides see it', async () => {
    const byEmail = await send(alice, { email: 'Bob@Example.com', currencyId: usdt, amount: '12.5', memo: '  lunch ' }, { key: nextKey() });
    expect(byEmail).toMatchObject({
      status: 200,
      code: 0,
      message: '成功',
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
    expect(new Date(byEmail.data.createdAt).toISOString()).toBe(byEmail.data.createdAt);
    firstId = byEmail.data.id;
    const byUid = await sendUid(alice, { uid: carol.uid, currencyId: btc, amount: '0.00000001' });
    expect(byUid).toMatchObject({ code: 0, data: { amount: '0.00000001', memo: null, counterparty: { uid: carol.uid } } });
    expect(await balanceOf(alice, usdt)).toBe('87.5');
    expect(await balanceOf(bob, usdt)).toBe('12.5');
    expect(await balanceOf(alice, btc)).toBe('0.99999999');
    expect(await balanceOf(carol, btc)).toBe('0.00000001');
  });

  it('lists transfers for both sides with filters and pages', async () => {
    await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount: '1' });
    await sendUid(bob, { uid: alice.uid, currencyId: usdt, amount: '0.5' });
    const bobAll = await call<Page>('POST', '/api/transfer/clientPage', { token: bob.token, body: { page: 1, pageSize: 10 } });
    expect(bobAll.data).toMatchObject({ total: 3, page: 1, pageSize: 10 });
    expect(bobAll.data.list.map((r) => [r.direction, r.amount])).toEqual([
      ['out', '0.5'],
      ['in', '1'],
      ['in', '12.5'],
    ]);
    expect(bobAll.data.list[2]).toMatchObject({ id: firstId, counterparty: { uid: alice.uid, maskedEmail: 'a***e@example.com' } });

    const bobIn = await call<Page>('POST', '/api/transfer/clientPage', {
      token: bob.token,
      body: { page: 1, pageSize: 10, direction: 'in' },
    });
    expect(bobIn.data.total).toBe(2);
    expect(bobIn.data.list.every((r) => r.direction === 'in')).toBe(true);
    const aliceOut = await call<Page>('POST', '/api/transfer/clientPage', {
      token: alice.token,
      body: { page: 1, pageSize: 10, direction: 'out' },
    });
    expect(aliceOut.data.total).toBe(3);
    const aliceBtc = await call<Page>('POST', '/api/transfer/clientPage', {
      token: alice.token,
      body: { page: 1, pageSize: 10, currencyId: btc },
    });
    expect(aliceBtc.data.list.map((r) => r.code)).toEqual(['BTC']);

    const page2 = await call<Page>('POST', '/api/transfer/clientPage', { token: alice.token, body: { page: 2, pageSize: 2 } });
    expect(page2.data).toMatchObject({ total: 4, page: 2, pageSize: 2 });
    expect(page2.data.list).toHaveLength(2);
    const beyond = await call<Page>('POST', '/api/transfer/clientPage', { token: alice.token, body: { page: 9, pageSize: 2 } });
    expect(beyond.data).toMatchObject({ list: [], total: 4 });
    const defaults = await call<Page>('POST', '/api/transfer/clientPage', { token: carol.token, body: {} });
    expect(defaults.data).toMatchObject({ total: 1, page: 1, pageSize: 20 });

    for (const body of [{ page: 0 }, { pageSize: 101 }, { direction: 'sideways' }, { currencyId: 'x' }]) {
      expect((await call('POST', '/api/transfer/clientPage', { token: bob.token, body })).code).toBe(1001);
    }
    expect((await call('POST', '/api/transfer/clientPage', { body: {} })).code).toBe(2001);
  });

  it('shows details to the sender and the recipient only', async () => {
    const asSender = await call<TransferRecord>('GET', `/api/transfer/details/${firstId}`, { token: alice.token });
    expect(asSender).toMatchObject({ code: 0, data: { id: firstId, direction: 'out', amount: '12.5', memo: 'lunch' } });
    const asRecipient = await call<TransferRecord>('GET', `/api/transfer/details/${firstId}`, { token: bob.token });
    expect(asRecipient).toMatchObject({ code: 0, data: { direction: 'in', counterparty: { uid: alice.uid } } });
    expect(await call('GET', `/api/transfer/details/${firstId}`, { token: carol.token })).toMatchObject({ code: 4004, data: null });
    expect((await call('GET', '/api/transfer/details/999999', { token: carol.token })).code).toBe(4004);
    const en = await call('GET', `/api/transfer/details/${firstId}`, { token: dave.token, lang: 'en-US' });
    expect(en).toMatchObject({ code: 4004, message: 'Not found' });
    expect((await call('GET', '/api/transfer/details/abc', { token: carol.token })).code).toBe(1001);
    expect((await call('GET', `/api/transfer/details/${firstId}`)).code).toBe(2001);
  });

  it('refuses an overdraft with 3001 and moves nothing, in both languages', async () => {
    const before = await countTransfers();
    const zh = await sendUid(carol, { uid: bob.uid, currencyId: btc, amount: '0.00000002' });
    expect(zh).toMatchObject({ status: 200, code: 3001, message: '余额不足', data: null });
    const en = await sendUid(carol, { uid: bob.uid, currencyId: usdt, amount: '1' }, { lang: 'en-US' });
    expect(en).toMatchObject({ code: 3001, message: 'Insufficient balance' });
    expect(await countTransfers()).toBe(before);
    expect(await balanceOf(carol, btc)).toBe('0.00000001');
  });

  it('judges amounts against the currency: 3002 for zero, decimals and size, 1001 for shapes', async () => {
    const cases: [unknown, number][] = [
      ['0', 3002],
      ['0.0', 3002],
      ['1.0000001', 3002],
      ['100000000000000000000', 3002],
      ['99999999999999999999', 3001],
      ['-1', 1001],
      ['abc', 1001],
      ['1e3', 1001],
      ['', 1001],
      [5, 1001],
      [null, 1001],
    ];
    for (const [amount, code] of cases) {
      const res = await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount });
      expect(res.code, String(amount)).toBe(code);
    }
    // An 18-decimal currency takes 18 decimals, and a BTC amount with 9 does not fit.
    await fund(t, alice.uid, 'ETH', '1');
    expect((await sendUid(alice, { uid: bob.uid, currencyId: eth, amount: '0.000000000000000001' })).code).toBe(0);
    expect((await sendUid(alice, { uid: bob.uid, currencyId: btc, amount: '0.000000001' })).code).toBe(3002);
    const en = await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount: '0' }, { lang: 'en-US' });
    expect(en.message).toBe('Amount out of range or too many decimals');
  });

  it('applies the currency limits and availability, also when the cached copy is stale', async () => {
    expect((await sendUid(alice, { uid: bob.uid, currencyId: 999, amount: '1' })).code).toBe(3003);
    await t.database.sql.query(`update currencies set transfer_min = '1', transfer_max = '10' where id = $1`, [usdt]);
    // Not yet invalidated: the SQL function enforces the new limits on its own.
    expect((await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount: '11' })).code).toBe(3002);
    invalidateCurrencies(t.database);
    expect((await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount: '0.5' })).code).toBe(3002);
    expect((await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount: '10.000001' })).code).toBe(3002);
    expect((await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount: '10' })).code).toBe(0);
    await t.database.sql.query(`update currencies set transfer_min = null, transfer_max = null, enabled = false where id = $1`, [usdt]);
    expect((await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount: '1' })).code).toBe(3003);
    invalidateCurrencies(t.database);
    const en = await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount: '1' }, { lang: 'en-US' });
    expect(en).toMatchObject({ code: 3003, message: 'Currency or network unavailable' });
    await t.database.sql.query('update currencies set enabled = true where id = $1', [usdt]);
    invalidateCurrencies(t.database);
  });

  it('answers 3004 for unknown recipients and 3005 for oneself', async () => {
    expect((await send(alice, { email: 'nobody@example.com', currencyId: usdt, amount: '1' })).code).toBe(3004);
    expect((await sendUid(alice, { uid: 987654, currencyId: usdt, amount: '1' })).code).toBe(3004);
    expect((await send(alice, { email: 'ALICE@example.com', currencyId: usdt, amount: '1' })).code).toBe(3005);
    const en = await sendUid(alice, { uid: alice.uid, currencyId: usdt, amount: '1' }, { lang: 'en-US' });
    expect(en).toMatchObject({ code: 3005, message: 'You cannot send to yourself' });
    expect((await send(alice, { email: 'nobody@example.com', currencyId: usdt, amount: '1' }, { lang: 'en-US' })).message).toBe(
      'Recipient not found',
    );
  });

  it('validates the body: 1001 names the field; 2001 without a session', async () => {
    const bad: Record<string, unknown>[] = [
      { currencyId: usdt, amount: '1' },
      { email: 'not-an-email', currencyId: usdt, amount: '1' },
      { email: 'bob@example.com', amount: '1' },
      { email: 'bob@example.com', currencyId: usdt },
      { email: 'bob@example.com', currencyId: usdt, amount: '1', memo: 'x'.repeat(101) },
    ];
    for (const body of bad) expect((await send(alice, body)).code, JSON.stringify(body)).toBe(1001);
    const named = await send(alice, { email: 'bob@example.com', currencyId: usdt, amount: '1', memo: 'x'.repeat(101) }, { lang: 'en-US' });
    expect(named.message).toContain('memo');
    expect((await sendUid(alice, { uid: 'abc', currencyId: usdt, amount: '1' })).code).toBe(1001);
    expect((await send(alice, { email: 'bob@example.com', currencyId: usdt, amount: '1', memo: 'x'.repeat(100) })).code).toBe(0);
    const anonymous = await call('POST', '/api/transfer/transferByUID', { body: { uid: bob.uid, currencyId: usdt, amount: '1' } });
    expect(anonymous).toMatchObject({ code: 2001, data: null });
    const badKey = await sendUid(alice, { uid: bob.uid, currencyId: usdt, amount: '1' }, { key: 'short' });
    expect(badKey.code).toBe(1001);
  });

  it('moves nothing without an active session (missing, wrong, revoked or expired): 2001 first', async () => {
    const before = await countTransfers();
    const body = { uid: bob.uid, currencyId: usdt, amount: '1' };
    expect((await sendUid({ ...alice, token: 'Bearer not-a-token' }, body)).code).toBe(2001);
    const temp = await createUser(t);
    await fund(t, temp.uid, 'USDT', '5');
    await t.database.sql.query('update sessions set revoked_at = now() where user_id = $1', [temp.uid]);
    expect(await sendUid(temp, body, { lang: 'en-US' })).toMatchObject({ code: 2001, message: 'Not signed in or session expired' });
    const other = await createUser(t);
    await t.database.sql.query(`update sessions set expires_at = now() - interval '1 second' where user_id = $1`, [other.uid]);
    expect((await send(other, { email: 'bob@example.com', currencyId: usdt, amount: '1' })).code).toBe(2001);
    // Refusals that need no database still say 2001 first to a caller without a session.
    expect((await sendUid(temp, { ...body, currencyId: 999 })).code).toBe(2001);
    expect((await sendUid(temp, { ...body, amount: '0.0000001' })).code).toBe(2001);
    expect(await countTransfers()).toBe(before);
  });

  it('replays a repeated Idempotency-Key with the same body and refuses another body (3010)', async () => {
    const key = nextKey();
    const body = { email: 'carol@example.com', currencyId: usdt, amount: '2', memo: 'rent' };
    expect(await balanceOf(alice, usdt)).toBe('76');
    const first = await send(alice, body, { key });
    expect(first).toMatchObject({ code: 0, data: { replayed: false } });
    const again = await send(alice, { ...body, amount: '2.000' }, { key });
    expect(again).toMatchObject({ code: 0, data: { ...first.data, replayed: true } });
    expect(await balanceOf(carol, usdt)).toBe('2');
    expect(await balanceOf(alice, usdt)).toBe('74');

    const other = await send(alice, { ...body, amount: '3' }, { key });
    expect(other).toMatchObject({ code: 3010, data: null });
    const viaUid = await sendUid(alice, { uid: carol.uid, currencyId: usdt, amount: '2', memo: 'rent' }, { key, lang: 'en-US' });
    expect(viaUid).toMatchObject({ code: 3010, message: 'Idempotency key reused with a different request' });
    // Keys belong to their user: Dave may use the same key for his own transfer.
    expect((await send(dave, body, { key })).data.replayed).toBe(false);
    expect(await balanceOf(carol, usdt)).toBe('4');
  });

  it('lets concurrent twins with one key move money once', async () => {
    const key = nextKey();
    const body = { uid: bob.uid, currencyId: usdt, amount: '0.25' };
    const before = await countTransfers();
    const answers = await Promise.all(Array.from({ length: 6 }, () => sendUid(dave, body, { key })));
    expect(answers.every((a) => a.code === 0 && a.data.id === answers[0]!.data.id)).toBe(true);
    expect(answers.filter((a) => !a.data.replayed)).toHaveLength(1);
    expect(await countTransfers()).toBe(before + 1);
  });

  it('keeps a refusal under its key (decision 012): the same request stays refused once the balance allows it', async () => {
    const key = nextKey();
    const body = { uid: alice.uid, currencyId: btc, amount: '0.5' };
    expect((await sendUid(carol, body, { key })).code).toBe(3001);
    await fund(t, carol.uid, 'BTC', '0.5');
    expect(await sendUid(carol, body, { key })).toMatchObject({ code: 3001, data: null });
    expect(await balanceOf(carol, btc)).toBe('0.50000001');
    const fresh = nextKey();
    expect((await sendUid(carol, body, { key: fresh })).data).toMatchObject({ replayed: false, amount: '0.5' });
    expect((await sendUid(carol, body, { key: fresh })).data.replayed).toBe(true);
    expect((await sendUid(carol, body, { key })).code).toBe(3001);
    expect(await balanceOf(carol, btc)).toBe('0.00000001');
  });

  it('previews a recipient by e-mail or uid', async () => {
    const byEmail = await call<Recipient>('GET', '/api/transfer/recipient?email=BOB%40example.com', { token: alice.token });
    expect(byEmail).toMatchObject({
      code: 0,
      data: { uid: bob.uid, maskedEmail: 'b***b@example.com', nickname: 'Bob', avatar: 'preset:3' },
    });
    const byUid = await call<Recipient>('GET', `/api/transfer/recipient?uid=${carol.uid}`, { token: alice.token });
    expect(byUid.data).toEqual({ uid: carol.uid, maskedEmail: 'c***l@example.com', nickname: 'Carol', avatar: null });
    expect((await call('GET', '/api/transfer/recipient?email=nobody%40example.com', { token: alice.token })).code).toBe(3004);
    expect((await call('GET', '/api/transfer/recipient?uid=987654', { token: alice.token })).code).toBe(3004);
    expect((await call('GET', `/api/transfer/recipient?uid=${alice.uid}`, { token: alice.token })).code).toBe(3005);
    const en = await call('GET', '/api/transfer/recipient?email=alice%40example.com', { token: alice.token, lang: 'en-US' });
    expect(en).toMatchObject({ code: 3005, message: 'You cannot send to yourself' });
    expect((await call('GET', '/api/transfer/recipient', { token: alice.token })).code).toBe(1001);
    expect((await call('GET', `/api/transfer/recipient?uid=1&email=bob%40example.com`, { token: alice.token })).code).toBe(1001);
    expect((await call('GET', '/api/transfer/recipient?email=bob%40example.com')).code).toBe(2001);
  });

  it('refuses control, bidirectional and zero-width characters in the memo with 1001, naming it, moving nothing', async () => {
    const before = await countTransfers();
    const balance = await balanceOf(dave, usdt);
    const memos = [
      'a\u0000b',
      '\u0000',
      'tab\tinside',
      'line\nbreak',
      'cr\rinside',
      'del\u007f',
      'c1\u0085control',
      'c1\u009b',
      'pay \u202etsil',
      'embed\u202aed',
      'iso\u2066late\u2069',
      'fsi\u2068x',
      'mark\u200eleft',
      'mark\u200fright',
      'arabic\u061cmark',
      'zero\u200bwidth',
      'zwnj\u200c',
      'zwj\u200d',
      'word\u2060joiner',
      'bom\ufeffinside',
    ];
    for (const memo of memos) {
      const byEmail = await send(dave, { email: 'bob@example.com', currencyId: usdt, amount: '1', memo }, { lang: 'en-US' });
      expect(byEmail, JSON.stringify(memo)).toMatchObject({ status: 200, code: 1001, data: null });
      expect(byEmail.message).toContain('memo');
      const byUid = await sendUid(dave, { uid: bob.uid, currencyId: usdt, amount: '1', memo }, { key: nextKey() });
      expect(byUid, JSON.stringify(memo)).toMatchObject({ status: 200, code: 1001 });
    }
    expect(await countTransfers()).toBe(before);
    expect(await balanceOf(dave, usdt)).toBe(balance);
    // Ordinary text stays fine: CJK, emoji, right-to-left scripts, spaces around are trimmed.
    const fine = await sendUid(dave, { uid: bob.uid, currencyId: usdt, amount: '0.01', memo: ' 午饭 🍜 مرحبا שלום ' });
    expect(fine).toMatchObject({ code: 0, data: { memo: '午饭 🍜 مرحبا שלום' } });
  });

  it('takes ids in a body as JSON integers only: loose values answer 1001 and move nothing', async () => {
    // uid 1 exists (Alice), so a coerced uid would move money to her.
    expect(alice.uid).toBe(1);
    const before = await countTransfers();
    const balance = await balanceOf(dave, usdt);
    const aliceBalance = await balanceOf(alice, usdt);
    const loose: unknown[] = [true, '0x1', [1], ' 1', '1e0', '1', '01', 1.5, 0, -1, 2 ** 53, {}, null, ''];
    for (const uid of loose) {
      const res = await sendUid(dave, { uid, currencyId: usdt, amount: '1' }, { lang: 'en-US' });
      expect(res, `uid ${JSON.stringify(uid)}`).toMatchObject({ code: 1001, data: null });
      expect(res.message).toContain('uid');
    }
    for (const currencyId of [true, String(usdt), [usdt], ` ${usdt}`, `${usdt}e0`, '0x1', usdt + 0.5, null]) {
      const res = await sendUid(dave, { uid: alice.uid, currencyId, amount: '1' }, { lang: 'en-US' });
      expect(res, `currencyId ${JSON.stringify(currencyId)}`).toMatchObject({ code: 1001 });
      expect(res.message).toContain('currencyId');
      const byEmail = await send(dave, { email: alice.email, currencyId, amount: '1' });
      expect(byEmail.code, `currencyId ${JSON.stringify(currencyId)} by e-mail`).toBe(1001);
    }
    for (const body of [{ page: '1' }, { pageSize: '10' }, { page: true }, { currencyId: String(usdt) }, { currencyId: true }]) {
      expect((await call('POST', '/api/transfer/clientPage', { token: dave.token, body })).code, JSON.stringify(body)).toBe(1001);
    }
    expect(await countTransfers()).toBe(before);
    expect(await balanceOf(dave, usdt)).toBe(balance);
    expect(await balanceOf(alice, usdt)).toBe(aliceBalance);
  });

  it('takes ids in a path or query as plain digits only', async () => {
    for (const uid of ['0x1', '1e0', '%201', '01', '1.0', '-1', '0', 'true', '99999999999999999', '1&uid=2']) {
      const res = await call('GET', `/api/transfer/recipient?uid=${uid}`, { token: dave.token });
      expect(res.code, `?uid=${uid}`).toBe(1001);
    }
    expect((await call<Recipient>('GET', `/api/transfer/recipient?uid=${bob.uid}`, { token: dave.token })).data.uid).toBe(bob.uid);
    for (const id of ['0x1', '1e0', '%201', '01', '1.0', '0', '99999999999999999']) {
      expect((await call('GET', `/api/transfer/details/${id}`, { token: alice.token })).code, `details/${id}`).toBe(1001);
    }
    expect((await call('GET', `/api/transfer/details/${firstId}`, { token: alice.token })).code).toBe(0);
  });

  it('keeps honest transfers landing while other clients poison their batches (no failures of honest requests)', async () => {
    const senders: TestUser[] = [];
    for (let i = 0; i < 8; i++) {
      const u = await createUser(t);
      await fund(t, u.uid, 'USDT', '100');
      senders.push(u);
    }
    const receiver = await createUser(t);
    const attackers = [await createUser(t), await createUser(t)];
    for (const a of attackers) await fund(t, a.uid, 'USDT', '100');
    const before = await countTransfers();

    // Two clients send NUL memos straight to the batch writer (the route refuses them with 1001
    // now), each again as soon as the last one was answered, so they ride along in every batch.
    let done = false;
    let poisonSent = 0;
    const poisonRefused: string[] = [];
    const attack = async (a: TestUser) => {
      const item: BatchItem = {
        tokenHash: hashToken(a.token.replace(/^Bearer /, '')),
        toUid: receiver.uid,
        toEmail: null,
        currencyId: usdt,
        amount: '1',
        memo: 'poison\u0000',
        key: null,
        hash: null,
        stepped: false,
      };
      while (!done) {
        poisonSent++;
        try {
          await transferBatcher(t.database).submit(item);
          poisonRefused.push('accepted');
        } catch (e) {
          poisonRefused.push(String((e as { code?: string }).code));
        }
      }
    };
    const attacks = attackers.map(attack);

    // 32 concurrent honest clients, 5 transfers each, and more while fewer than 11 poisoned items
    // have been sent (a fast ledger could otherwise finish before the attack got going).
    const honest = await Promise.all(
      Array.from({ length: 32 }, async (_, c) => {
        const codes: number[] = [];
        for (let k = 0; k < 5 || (poisonSent <= 10 && k < 50); k++) {
          const res = await sendUid(senders[c % senders.length]!, {
            uid: receiver.uid,
            currencyId: usdt,
            amount: '0.5',
            memo: `c${c} #${k}`,
          });
          codes.push(res.code);
        }
        return codes;
      }),
    );
    done = true;
    await Promise.all(attacks);

    const codes = honest.flat();
    const failures = codes.filter((c) => c !== 0).length;
    expect(poisonSent).toBeGreaterThan(10);
    expect(new Set(poisonRefused)).toEqual(new Set(['22021']));
    expect(failures, `honest failures of ${codes.length} (poisoned items sent: ${poisonSent})`).toBe(0);
    expect(await countTransfers()).toBe(before + codes.length);
    expect(await balanceOf(receiver, usdt)).toBe(String(codes.length * 0.5));
    for (const a of attackers) expect(await balanceOf(a, usdt)).toBe('100');
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  });
});
