import { type NoticeDetail, type NoticePage, type NotifySettings, trimDecimal } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { authenticatorCode } from '../../test/authenticator.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { decodeMail, signUp } from '../auth/test-helpers.ts';
import { notifyMoneyEvents } from './money-events.ts';
import { notifierFor } from './notifier.ts';
import { drainTransferNotices } from './transfer-notices.ts';
import { waitFor } from '../../test/wait.ts';
import { mailsTo } from './test-support.ts';

/**
 * Every event kind makes one notice for its user alone (never twice), and a mail in their
 * language unless they turned the category off (docs/decisions/054). Real SMTP capture.
 */
describe('event notices and mails', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let usdt: number;
  let eth: { network: number; name: string; currency: number };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
    alice = await createUser(t);
    bob = await createUser(t);
    const [c] = await t.database.sql.query<{ id: number }>("select id from currencies where code = 'USDT'");
    usdt = Number(c!.id);
    const [n] = await t.database.sql.query<{ id: number; name: string; currency_id: number }>(
      "select n.id, n.name, n.currency_id from networks n join currencies c on c.id = n.currency_id where c.code = 'ETH' order by n.id limit 1",
    );
    eth = { network: Number(n!.id), name: n!.name, currency: Number(n!.currency_id) };
    await fund(t, alice.uid, 'USDT', '1000');
    await fund(t, alice.uid, 'ETH', '10');
    // money mails are off by default: these two asked for them
    for (const u of [alice, bob]) await call('POST', '/api/user/notify-settings', { token: u.token, body: { moneyMail: true } });
  });
  afterAll(() => t.close());

  const notices = async (u: TestUser, lang = 'en-US') => (await call<NoticePage>('GET', '/api/notice/list', { token: u.token, lang })).data;
  const mine = async (u: TestUser, kind: string) =>
    (
      await t.database.sql.query<{ id: number; dedupe_key: string; title_en: string; title_zh: string; body_en: string; body_zh: string }>(
        'select id, dedupe_key, title_en, title_zh, body_en, body_zh from notices where user_id = $1 and kind = $2 order by id',
        [u.uid, kind],
      )
    ).map((r) => ({ ...r, id: Number(r.id) }));
  const mailWith = (u: TestUser, needle: string) =>
    waitFor(
      () =>
        mailsTo(t, u.email)
          .map((m) => decodeMail(m.raw))
          .find((m) => m.text.includes(needle)),
      `mail to ${u.email} with ${needle}`,
    );
  const sweep = () => notifyMoneyEvents(t.database, notifierFor(t.database)!);
  const setLanguage = (u: TestUser, language: string) =>
    t.database.sql.query('update users set language = $2 where id = $1', [u.uid, language]);

  it('settings: security mail on and money mail off by default; toggles change one at a time; bad input 1001; signed out 2001', async () => {
    const u = await createUser(t);
    expect((await call<NotifySettings>('GET', '/api/user/notify-settings', { token: u.token })).data).toEqual({
      moneyMail: false,
      securityMail: true,
    });
    const set = await call<NotifySettings>('POST', '/api/user/notify-settings', { token: u.token, body: { moneyMail: true } });
    expect(set.data).toEqual({ moneyMail: true, securityMail: true });
    expect((await call('POST', '/api/user/notify-settings', { token: u.token, body: {} })).code).toBe(1001);
    expect((await call('POST', '/api/user/notify-settings', { token: u.token, body: { moneyMail: 'no' } })).code).toBe(1001);
    expect((await call('GET', '/api/user/notify-settings')).code).toBe(2001);
    expect((await call('POST', '/api/user/notify-settings', { body: { moneyMail: true } })).code).toBe(2001);
    // another user's settings are untouched
    const other = await createUser(t);
    expect((await call<NotifySettings>('GET', '/api/user/notify-settings', { token: other.token })).data.moneyMail).toBe(false);
  });

  it('a received transfer: one notice for the recipient (not the sender), a mail in their language, none again on a replay', async () => {
    await setLanguage(bob, 'zh-CN');
    const body = { uid: bob.uid, currencyId: usdt, amount: '12.50' };
    const sent = await call<{ id: number }>('POST', '/api/transfer/transferByUID', { token: alice.token, body, key: 'notify-t1' });
    expect(sent.code).toBe(0);
    await drainTransferNotices(t.database);
    const [notice] = await mine(bob, 'transfer_received');
    expect(notice?.dedupe_key).toBe(`transfer:${sent.data.id}`);
    expect(notice?.title_en).toBe('Transfer received: 12.5 USDT');
    expect(notice?.title_zh).toBe('收到转账 12.5 USDT');
    const mail = await mailWith(bob, '12.5 USDT');
    expect(mail.subject).toBe('Coffer：收到转账 12.5 USDT');
    expect(mail.text).toContain(`UID ${alice.uid}`);
    // the same Idempotency-Key again answers the stored transfer: no second notice or mail
    expect((await call('POST', '/api/transfer/transferByUID', { token: alice.token, body, key: 'notify-t1' })).code).toBe(0);
    await drainTransferNotices(t.database);
    expect(await mine(bob, 'transfer_received')).toHaveLength(1);
    expect(mailsTo(t, bob.email).filter((m) => decodeMail(m.raw).text.includes('12.5 USDT'))).toHaveLength(1);
    // the recipient sees it (unread), in both languages; the sender does not
    const page = await notices(bob);
    expect(page.unreadCount).toBeGreaterThanOrEqual(1);
    expect(page.list.find((n) => n.id === notice!.id)?.title).toBe('Transfer received: 12.5 USDT');
    expect((await notices(bob, 'zh-CN')).list.find((n) => n.id === notice!.id)?.title).toBe('收到转账 12.5 USDT');
    expect((await notices(alice)).list.some((n) => n.id === notice!.id)).toBe(false);
    expect((await call('GET', `/api/notice/${notice!.id}`, { token: alice.token })).code).toBe(4004);
    const detail = await call<NoticeDetail>('GET', `/api/notice/${notice!.id}`, { token: bob.token, lang: 'en-US' });
    expect(detail.data.html).toContain('<strong>12.5 USDT</strong>');
    expect(detail.data.html).toContain('***');
  });

  it('money mail off (the default): the notice still comes, no mail', async () => {
    const carol = await createUser(t);
    const sent = await call<{ id: number }>('POST', '/api/transfer/transferByUID', {
      token: alice.token,
      body: { uid: carol.uid, currencyId: usdt, amount: '3' },
    });
    await drainTransferNotices(t.database);
    expect((await mine(carol, 'transfer_received')).map((n) => n.dedupe_key)).toEqual([`transfer:${sent.data.id}`]);
    expect(t.sendAttempts).not.toContain(carol.email);
  });

  it('a credited deposit: one notice with amount, currency and network, even when two workers look at once', async () => {
    const [d] = await t.database.sql.query<{ id: number }>(
      `insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash, amount)
       values ($1, $2, $3, '0xabc', '0xdef', '0x' || md5(random()::text), 0, 5, '0x01', 0.123456789012345678) returning id`,
      [eth.network, eth.currency, bob.uid],
    );
    await t.database.sql.query('select * from coffer_deposit_credit_due((select chain_id from networks where id = $1), 1000000)', [
      eth.network,
    ]);
    await Promise.all([sweep(), sweep()]);
    await sweep();
    const list = await mine(bob, 'deposit_credited');
    expect(list.map((n) => n.dedupe_key)).toEqual([`deposit:${d!.id}:credited`]);
    expect(list[0]!.title_en).toBe('Deposit credited: 0.123456789012345678 ETH');
    expect(list[0]!.body_zh).toContain(`（${eth.name} 网络）`);
    await mailWith(bob, '0.123456789012345678 ETH');
    expect(mailsTo(t, bob.email).filter((m) => decodeMail(m.raw).text.includes('0.123456789012345678'))).toHaveLength(1);
    expect((await notices(alice)).list.some((n) => n.id === list[0]!.id)).toBe(false);
  });

  /** A withdrawal of alice's as the API applies it (fee quote at the network's fee), then moved on. */
  async function withdrawal(amount: string): Promise<number> {
    const [row] = await t.database.sql.query<{ w_id: number }>(
      `with q as (insert into withdrawal_fee_quotes (user_id, network_id, fee, gas_limit, chain_gas_price_wei, gas_price_wei,
                                                    margin_percent, fees_high, expires_at)
                  select $1, id, withdraw_fee, 21000, 0, 0, 0, false, now() + interval '1 minute' from networks where id = $2 returning id)
       select a.* from q, coffer_withdraw_apply($1, $2, '0x00000000000000000000000000000000000000aa', $3::numeric, null, null, null, q.id) a`,
      [alice.uid, eth.network, amount],
    );
    return Number(row!.w_id);
  }

  it('withdrawals: completed, rejected and cancelled each make one notice in the right words', async () => {
    await setLanguage(alice, 'en-US');
    const done = await withdrawal('0.5');
    // as the sender moves it (the transitions guard allows only these steps)
    await t.database.sql.query("update withdrawals set status = 'broadcast' where id = $1", [done]);
    await t.database.sql.query("update withdrawals set status = 'confirming' where id = $1", [done]);
    await t.database.sql.query("select coffer_withdraw_settle($1, '0x' || md5('x'), 9)", [done]);
    // above the review threshold: held for an operator, who rejects it
    await t.database.sql.query('update networks set review_threshold = 0.2 where id = $1', [eth.network]);
    const rejected = await withdrawal('0.25');
    await t.database.sql.query('update networks set review_threshold = null where id = $1', [eth.network]);
    await t.database.sql.query("select coffer_withdraw_refund($1, 'rejected', 'test', '{review}', null)", [rejected]);
    const cancelled = await withdrawal('0.125');
    await t.database.sql.query("select coffer_withdraw_refund($1, 'cancelled', 'test', '{queued}', null)", [cancelled]);
    await sweep();
    await sweep();
    expect((await mine(alice, 'withdraw_completed')).map((n) => [n.dedupe_key, n.title_en])).toEqual([
      [`withdraw:${done}:completed`, 'Withdrawal completed: 0.5 ETH'],
    ]);
    const returned = await mine(alice, 'withdraw_returned');
    expect(returned.map((n) => n.dedupe_key)).toEqual([`withdraw:${rejected}:rejected`, `withdraw:${cancelled}:cancelled`]);
    expect(returned[0]!.body_en).toContain('it was not approved');
    // The title says what came back: the amount and the fee, as the record's head does.
    const [row] = await t.database.sql.query<{ back: string }>('select (amount + fee)::text as back from withdrawals where id = $1', [
      rejected,
    ]);
    const back = trimDecimal(row!.back);
    expect(back).not.toBe('0.25');
    expect(returned[0]!.title_en).toBe(`Withdrawal returned: ${back} ETH`);
    expect(returned[0]!.body_en).toContain(`Your withdrawal of **0.25 ETH**`);
    expect(returned[1]!.body_zh).toContain('提现已取消');
    await mailWith(alice, 'Your withdrawal of 0.125 ETH');
    expect((await notices(bob)).list.some((n) => returned.some((r) => r.id === n.id))).toBe(false);
  });

  it('a sign-in from a new device and two-step turned on: a notice each; security mail off stops the mail only', async () => {
    const email = `notify-${Date.now()}@test.coffer`;
    const password = 'correct horse battery staple 42';
    const token = await signUp(t, email, password, { lang: 'en-US' });
    const [me] = await t.database.sql.query<{ id: number }>('select id from users where email = $1', [email]);
    const user = { uid: Number(me!.id), email, token, nickname: '' };
    const login = await call('POST', '/api/login', { body: { email, password }, ip: '203.0.113.7' });
    expect(login.code).toBe(0);
    const signIns = await waitFor(() => mine(user, 'new_sign_in').then((l) => l.length > 0 && l), 'sign-in notice');
    expect(signIns[signIns.length - 1]!.body_en).toContain('203.0.113.7');
    await mailWith(user, '203.0.113.7');
    // security mail off, then two-step on: a notice, no mail
    await call('POST', '/api/user/notify-settings', { token, body: { securityMail: false } });
    await t.database.sql.query('update sessions set reauthenticated_at = now() where user_id = $1', [user.uid]);
    const setup = await call<{ secret: string }>('POST', '/api/2fa/setup', { token });
    const before = t.sendAttempts.filter((to) => to === email).length;
    const code = authenticatorCode(setup.data.secret);
    expect((await call('POST', '/api/2fa/enable', { token, body: { code } })).code).toBe(0);
    const on = await waitFor(() => mine(user, 'two_factor_enabled').then((l) => l.length > 0 && l), '2fa notice');
    expect(on[0]!.title_en).toBe('Two-step verification on');
    expect(t.sendAttempts.filter((to) => to === email).length).toBe(before);
    expect((await notices(alice)).list.some((n) => n.id === on[0]!.id)).toBe(false);
  });
});
