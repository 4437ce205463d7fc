import type {
  AddressBookData,
  AddressBookEntry,
  AddressCheckData,
  Network,
  TwoFactorEnableData,
  TwoFactorSetupData,
} from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { sendPreviousCode } from '../../test/authenticator.ts';
import { waitFor } from '../../test/wait.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { decodeMail, mailsTo, sendMailUrl } from '../auth/test-helpers.ts';
import { lookalikeOf } from './lookalike.ts';

/**
 * The withdrawal address book (docs/security.md, "Address book"): entries with a label, the
 * time lock (skipped with the second factor), mails on add and remove, "whitelist only", and
 * the address check of /withdraw with its lookalike warning.
 */
describe('address book', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let eth: Network;
  let alice: TestUser;
  let bob: TestUser;
  const friend = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
  const other = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    eth = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
    alice = await createUser(t, { email: 'book-alice@example.com' });
    bob = await createUser(t, { email: 'book-bob@example.com', reauthenticated: true });
    await fund(t, alice.uid, 'ETH', '10');
  });
  afterAll(() => t.close());

  const add = (u: TestUser, body: Record<string, unknown>, lang?: string) =>
    call<AddressBookEntry>('POST', '/api/address-book/add', { token: u.token, lang, body: { networkId: eth.id, ...body } });
  const book = async (u: TestUser) => (await call<AddressBookData>('GET', '/api/address-book', { token: u.token })).data;
  const check = async (u: TestUser, address: string) =>
    (await call<AddressCheckData>('POST', '/api/withdraw/check-address', { token: u.token, body: { networkId: eth.id, address } })).data;

  async function withdraw(u: TestUser, address: string, opts: { lang?: string; totp?: string } = {}) {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    const before = mailsTo(t, u.email).length;
    expect((await call('GET', sendMailUrl(u.email, 'withdraw'), { token: u.token })).code).toBe(0);
    await expect.poll(() => mailsTo(t, u.email).length).toBeGreaterThan(before);
    const code = await t.mailbox.lastCode(u.email);
    return applyWithdraw(call, {
      token: u.token,
      lang: opts.lang,
      body: { currencyId: eth.currencyId, networkId: eth.id, address, amount: '0.01', code, ...(opts.totp && { totp: opts.totp }) },
    });
  }

  async function mailed(email: string, subject: string) {
    return waitFor(
      () =>
        mailsTo(t, email)
          .map((m) => decodeMail(m.raw))
          .find((m) => m.subject === subject),
      `a "${subject}" mail to ${email}`,
    );
  }

  it('adds an entry that waits the delay; a withdrawal to it is refused with the time left until then', async () => {
    const added = await add(alice, { address: friend.toLowerCase(), label: 'Friend' });
    expect(added).toMatchObject({ code: 0, data: { address: friend, label: 'Friend', usable: false, code: 'ETH' } });
    expect(added.data.secondsLeft).toBeGreaterThan(24 * 3600 - 60);
    const mail = await mailed(alice.email, 'Coffer：地址簿新增了提现地址');
    expect(mail.text).toContain(friend);

    const zh = await withdraw(alice, friend, { lang: 'zh-CN' });
    expect(zh.code).toBe(3015);
    expect(zh.message).toMatch(/剩余 (23 小时 59 分钟|24 小时)/);
    const en = await withdraw(alice, friend, { lang: 'en-US' });
    expect(en.message).toMatch(/(23 h 59 min|24 h) left/);
    expect((await check(alice, friend)).problem).toBe('not_yet_usable');

    // The clock moves through the database: the entry was added 25 hours ago.
    await t.database.sql.query(
      "update address_book set created_at = created_at - interval '25 hours', usable_at = usable_at - interval '25 hours' where id = $1",
      [added.data.id],
    );
    expect((await book(alice)).list).toMatchObject([{ id: added.data.id, usable: true, secondsLeft: 0 }]);
    expect((await check(alice, friend)).problem).toBeNull();
    expect((await withdraw(alice, friend)).code).toBe(0);
  });

  it('refuses bad entries: not an address, unspendable, twice, control characters, another user’s ids', async () => {
    expect((await add(alice, { address: '0x1234', label: 'x' })).code).toBe(3008);
    expect((await add(alice, { address: '0x0000000000000000000000000000000000000000', label: 'zero' })).code).toBe(3013);
    expect((await add(alice, { address: friend, label: 'again' })).code).toBe(3018);
    expect((await add(alice, { address: other, label: 'a\u202eb' })).code).toBe(1001);
    expect((await add(alice, { address: other, label: '' })).code).toBe(1001);
    expect((await add(alice, { address: other, label: 'x'.repeat(41) })).code).toBe(1001);
    expect((await add(alice, { address: other, label: 'x', networkId: 9999 })).code).toBe(3003);
    const mine = (await book(alice)).list[0]!;
    expect((await call('POST', `/api/address-book/remove/${mine.id}`, { token: bob.token })).code).toBe(4004);
    expect((await book(bob)).list).toEqual([]);
    expect((await book(alice)).list).toHaveLength(1);
    expect((await call('GET', '/api/address-book')).code).toBe(2001);
  });

  it('is usable at once when added with the second factor; a wrong one is refused', async () => {
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token: bob.token });
    const { answer: enabled } = await sendPreviousCode(setup.data.secret, (code) =>
      call<TwoFactorEnableData>('POST', '/api/2fa/enable', { token: bob.token, body: { code } }),
    );
    expect(enabled.code).toBe(0);
    expect((await add(bob, { address: other, label: 'Cold wallet', totp: '000000' })).code).toBe(2007);
    const now = await add(bob, { address: other, label: 'Cold wallet', totp: enabled.data.recoveryCodes[0] });
    expect(now).toMatchObject({ code: 0, data: { usable: true, secondsLeft: 0 } });
    // Without the factor it waits, like anyone's.
    const later = await add(bob, { address: friend, label: 'Later' });
    expect(later.data.usable).toBe(false);
  });

  it('"whitelist only" refuses other destinations; turning it off needs the second factor', async () => {
    const carol = await createUser(t, { email: 'book-carol@example.com' });
    await fund(t, carol.uid, 'ETH', '1');
    expect((await call('POST', '/api/address-book/whitelist', { token: carol.token, body: { enabled: true } })).code).toBe(0);
    expect((await book(carol)).whitelistOnly).toBe(true);
    const refused = await withdraw(carol, other, { lang: 'en-US' });
    expect(refused.code).toBe(3016);
    expect(refused.message).toMatch(/address book/);
    expect((await check(carol, other)).problem).toBe('not_in_book');
    // Without two-factor it can be turned off with the session alone.
    expect((await call('POST', '/api/address-book/whitelist', { token: carol.token, body: { enabled: false } })).code).toBe(0);
    expect((await withdraw(carol, other)).code).toBe(0);

    // Bob has two-factor: off needs it.
    expect((await call('POST', '/api/address-book/whitelist', { token: bob.token, body: { enabled: true } })).code).toBe(0);
    expect((await call('POST', '/api/address-book/whitelist', { token: bob.token, body: { enabled: false } })).code).toBe(2006);
    expect((await call('POST', '/api/address-book/whitelist', { token: bob.token, body: { enabled: false, totp: '000000' } })).code).toBe(
      2007,
    );
    expect((await book(bob)).whitelistOnly).toBe(true);
  });

  it('removes an entry and mails the owner', async () => {
    const entry = (await book(alice)).list[0]!;
    expect((await call('POST', `/api/address-book/remove/${entry.id}`, { token: alice.token })).code).toBe(0);
    expect((await book(alice)).list).toEqual([]);
    const mail = await mailed(alice.email, 'Coffer：地址簿删除了提现地址');
    expect(mail.text).toContain(entry.address);
    expect((await call('POST', `/api/address-book/remove/${entry.id}`, { token: alice.token })).code).toBe(4004);
  });

  it('mails add and remove in the account’s language (English here)', async () => {
    const dan = await createUser(t, { email: 'book-dan@example.com' });
    await t.database.sql.query("update users set language = 'en-US' where id = $1", [dan.uid]);
    const added = await add(dan, { address: other, label: 'Savings' });
    expect(added.code).toBe(0);
    const mail = await mailed(dan.email, 'Coffer: a withdrawal address was added to your address book');
    expect(mail.text).toContain('Label: Savings; network: Ethereum (local)');
    expect(mail.text).toMatch(/usable from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect((await call('POST', `/api/address-book/remove/${added.data.id}`, { token: dan.token })).code).toBe(0);
    await mailed(dan.email, 'Coffer: a withdrawal address was removed from your address book');
  });

  it('checks an address as it is typed: format, checksum, unspendable, contract, own deposit, lookalike', async () => {
    expect(await check(alice, '0x12')).toMatchObject({ address: null, problem: 'format' });
    expect(await check(alice, '0x8BA1f109551bD432803012645Ac136ddd64DBA72')).toMatchObject({ address: null, problem: 'checksum' });
    expect((await check(alice, '0x0000000000000000000000000000000000000001')).problem).toBe('unspendable');
    expect((await check(alice, t.chain.hotAddress)).problem).toBe('own_hot_wallet');
    const contract = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const usdt = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'USDT')!;
    await t.database.sql.query('update networks set contract = $1 where id = $2', [contract, usdt.id]);
    expect((await check(alice, contract)).problem).toBe('contract');
    await t.database.sql.query('update networks set contract = null where id = $1', [usdt.id]);

    const deposit = await call<{ address: string }>('POST', '/api/deposit/createAddress', {
      token: alice.token,
      body: { currencyId: eth.currencyId, networkId: eth.id },
    });
    expect(deposit.code).toBe(0);
    expect((await check(alice, deposit.data.address)).warnings).toContain('own_deposit');

    // Alice paid `friend` before: an address with the same ends and another middle is a lookalike.
    const poisoned = `${friend.slice(0, 6)}${'0'.repeat(32)}${friend.slice(-4)}`.toLowerCase();
    const verdict = await check(alice, poisoned);
    expect(verdict).toMatchObject({ problem: null, warnings: ['lookalike'], resembles: friend });
    expect((await check(alice, friend)).warnings).toEqual([]);
    expect((await check(alice, other)).warnings).toEqual([]);
    expect((await call('POST', '/api/withdraw/check-address', { token: alice.token, body: { networkId: eth.id } })).code).toBe(1001);
  });

  it('compares both ends of the address for lookalikes', () => {
    const known = ['0xAbCd000000000000000000000000000000001234'];
    expect(lookalikeOf('0xabcd111111111111111111111111111111111234', known)).toBe(known[0]);
    expect(lookalikeOf('0xabcd000000000000000000000000000000001234', known)).toBeNull();
    expect(lookalikeOf('0xabce111111111111111111111111111111111234', known)).toBeNull();
    expect(lookalikeOf('0xabcd111111111111111111111111111111111235', known)).toBeNull();
  });
});
