import type { Network, NetworkUpdateData, OpenWithdrawal, WithdrawRecord } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { applyWithdraw } from '../../test/withdraw.ts';

/**
 * The review queue an operator decides on (docs/decisions/044): destination, user and facts per
 * withdrawal in review, and four eyes above a network's second threshold.
 */
describe('admin: withdrawal review queue and four eyes', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let op1: TestUser;
  let op2: TestUser;
  let eth: Network;
  const known = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
  const fresh = '0x00000000000000000000000000000000DeaDBeef';

  const codeFor = async (u: TestUser) => {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    const sent = await call('GET', `/api/sendMail?email=${encodeURIComponent(u.email)}&type=withdraw`, { token: u.token });
    expect(sent.code).toBe(0);
    return t.mailbox.lastCode(u.email);
  };
  const apply = async (u: TestUser, amount: string, address = known) => {
    const res = await applyWithdraw<WithdrawRecord>(call, {
      token: u.token,
      body: { currencyId: eth.currencyId, networkId: eth.id, address, amount, code: await codeFor(u) },
    });
    expect(res.code).toBe(0);
    return res.data;
  };
  const open = async (token = op1.token) => (await call<OpenWithdrawal[]>('GET', '/api/admin/withdraw/open', { token })).data;
  const rowOf = async (id: number) => (await open()).find((w) => w.id === id)!;
  const decide = (who: TestUser, id: number, decision: 'approve' | 'reject', reason: unknown = 'checked with the user') =>
    call<WithdrawRecord>('POST', `/api/admin/withdraw/${id}/${decision}`, { token: who.token, body: { reason } });
  const setNetwork = (changes: Record<string, unknown>) =>
    call<NetworkUpdateData>('POST', `/api/admin/networks/${eth.id}`, { token: op1.token, body: { changes, reason: 'review test' } });
  const actions = (id: number) =>
    t.database.sql.query<{ action: string; actor: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
      `select action, actor, before, after from operator_actions where target_type = 'withdrawal' and target_id = $1 order by id`,
      [String(id)],
    );

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    alice = await createUser(t);
    bob = await createUser(t);
    op1 = await createUser(t, { role: 'operator' });
    op2 = await createUser(t, { role: 'operator' });
    eth = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
    await fund(t, alice.uid, 'ETH', '1000');
    await fund(t, bob.uid, 'ETH', '1000');
    expect((await setNetwork({ dailyWithdrawLimit: '100000' })).code).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists each withdrawal in review with its destination, user and facts, and nothing of another user', async () => {
    expect((await setNetwork({ explorerUrl: 'https://etherscan.io/address/{address}' })).data.explorerUrl).toBe(
      'https://etherscan.io/address/{address}',
    );
    const toKnown = await apply(alice, '60', known);
    const toFresh = await apply(alice, '55', fresh);
    const bobs = await apply(bob, '70', known);
    expect([toKnown.status, toFresh.status, bobs.status]).toEqual(['review', 'review', 'review']);
    // Alice's history: one completed payout to `known` (a week ago), `known` in her book for ten
    // days, a credited deposit and a password change three days ago (its hold still in force).
    await t.database.sql.query(
      `insert into withdrawals (user_id, network_id, currency_id, address, amount, fee, status, created_at, completed_at)
       values ($1, $2, $3, $4, 1.25, 0.0005, 'completed', now() - interval '7 days', now() - interval '7 days')`,
      [alice.uid, eth.id, eth.currencyId, known],
    );
    await t.database.sql.query(
      `insert into address_book (user_id, network_id, address, label, created_at, usable_at)
       values ($1, $2, $3, 'cold', now() - interval '10 days', now() - interval '9 days')`,
      [alice.uid, eth.id, known.toLowerCase()],
    );
    const [entry] = await t.database.sql.query<{ entry_id: number }>(
      'select entry_id from adjustments where user_id = $1 order by id desc limit 1',
      [alice.uid],
    );
    await t.database.sql.query(
      `insert into deposits (network_id, currency_id, user_id, address, from_address, tx_hash, log_index, block_number, block_hash,
                             amount, status, entry_id, credited_at)
       values ($1, $2, $3, $4, $4, $5, -1, 1, $5, 2.5, 'credited', $6, now() - interval '2 days')`,
      [eth.id, eth.currencyId, alice.uid, fresh, `0x${'ab'.repeat(32)}`, entry!.entry_id],
    );
    await t.database.sql.query(
      `insert into security_holds (user_id, reason, created_at, ends_at)
       values ($1, 'password_changed', now() - interval '3 days', now() + interval '1 day'),
              ($1, 'new_device', now() - interval '40 days', now() - interval '39 days')`,
      [alice.uid],
    );

    const rows = await open();
    const a1 = rows.find((w) => w.id === toKnown.id)!;
    expect(a1).toMatchObject({
      userId: alice.uid,
      email: alice.email,
      networkId: eth.id,
      networkName: 'Ethereum (local)',
      code: 'ETH',
      address: known,
      explorerUrl: `https://etherscan.io/address/${known}`,
      amount: '60',
      fee: '0.0005',
      status: 'review',
      needsSecondOperator: false,
      firstApproval: null,
    });
    expect(a1.facts).toMatchObject({
      firstToAddress: false,
      completedToAddress: 1,
      totpEnabled: false,
      passkeys: 0,
      deposits30d: [{ code: 'ETH', count: 1, sum: '2.5' }],
      // the other two of hers within 30 days: 55 in review and 1.25 completed (this one left out)
      withdrawals30d: [{ code: 'ETH', count: 2, sum: '56.25' }],
    });
    expect(new Date(a1.facts!.addressBookSince!).getTime()).toBeLessThan(Date.now() - 9 * 86_400_000);
    expect(a1.facts!.holds).toEqual([{ at: expect.any(String), reason: 'password_changed', endsAt: expect.any(String), active: true }]);
    expect(Date.parse(a1.facts!.accountCreatedAt)).toBeLessThanOrEqual(Date.now());

    const a2 = rows.find((w) => w.id === toFresh.id)!;
    expect(a2).toMatchObject({ address: fresh, amount: '55' });
    expect(a2.facts).toMatchObject({ firstToAddress: true, completedToAddress: 0, addressBookSince: null });
    expect(a2.facts!.withdrawals30d).toEqual([{ code: 'ETH', count: 2, sum: '61.25' }]);

    // Bob sends to the same address: Alice's payout there, her book, deposits and holds are not his.
    const b = rows.find((w) => w.id === bobs.id)!;
    expect(b).toMatchObject({ userId: bob.uid, email: bob.email, address: known });
    expect(b.facts).toMatchObject({
      firstToAddress: true,
      completedToAddress: 0,
      addressBookSince: null,
      holds: [],
      deposits30d: [],
      withdrawals30d: [],
    });

    // Only operators read the queue; a network without an explorer gives no link.
    expect((await call('GET', '/api/admin/withdraw/open', { token: alice.token })).status).toBe(403);
    expect((await setNetwork({ explorerUrl: null })).code).toBe(0);
    expect((await rowOf(toKnown.id)).explorerUrl).toBeNull();
    for (const id of [toKnown.id, toFresh.id, bobs.id]) expect((await decide(op1, id, 'reject', 'test cleanup')).code).toBe(0);
    await t.database.sql.query('update security_holds set cancelled_at = now() where user_id = $1 and cancelled_at is null', [alice.uid]);
  });

  it('above the second threshold: the same operator is refused (3041), a second one queues it; both audited', async () => {
    const set = await setNetwork({ secondApprovalAbove: '70' });
    expect(set.data).toMatchObject({ secondApprovalAbove: '70', changed: true });
    const big = await apply(alice, '80');
    expect((await rowOf(big.id)).needsSecondOperator).toBe(true);

    const first = await decide(op1, big.id, 'approve', 'called the user');
    expect(first.code).toBe(0);
    expect(first.data.status).toBe('review');
    const waiting = await rowOf(big.id);
    expect(waiting).toMatchObject({
      status: 'review',
      needsSecondOperator: true,
      firstApproval: { by: op1.email, reason: 'called the user' },
    });

    const again = await call('POST', `/api/admin/withdraw/${big.id}/approve`, {
      token: op1.token,
      lang: 'en-US',
      body: { reason: 'really' },
    });
    expect(again.code).toBe(3041);
    expect(again.message).toMatch(/operator/);
    expect((await rowOf(big.id)).status).toBe('review');

    const second = await decide(op2, big.id, 'approve', 'second look');
    expect(second.data).toMatchObject({ status: 'queued', reason: 'second look' });
    expect(await actions(big.id)).toMatchObject([
      { action: 'withdrawal.approve.first', actor: op1.email, after: { status: 'review', firstApprovedBy: op1.email } },
      {
        action: 'withdrawal.approve',
        actor: op2.email,
        before: { status: 'review', firstApprovedBy: op1.email },
        after: { status: 'queued' },
      },
    ]);
    const [row] = await t.database.sql.query<{ first_approved_by: number; reviewed_by: number }>(
      'select first_approved_by, reviewed_by from withdrawals where id = $1',
      [big.id],
    );
    expect([Number(row!.first_approved_by), Number(row!.reviewed_by)]).toEqual([op1.uid, op2.uid]);
    expect((await decide(op2, big.id, 'approve')).code).toBe(3007);
  });

  it('at or below the second threshold one approval queues; a reject needs one operator even after a first approval', async () => {
    const small = await apply(alice, '70');
    expect((await rowOf(small.id)).needsSecondOperator).toBe(false);
    expect((await decide(op1, small.id, 'approve')).data.status).toBe('queued');
    expect((await actions(small.id)).map((a) => a.action)).toEqual(['withdrawal.approve']);

    const big = await apply(alice, '75');
    expect((await decide(op1, big.id, 'approve')).data.status).toBe('review');
    const rejected = await decide(op1, big.id, 'reject', 'changed my mind');
    expect(rejected.data).toMatchObject({ status: 'rejected', reason: 'changed my mind' });
    expect((await actions(big.id)).map((a) => a.action)).toEqual(['withdrawal.approve.first', 'withdrawal.reject']);

    // Without a second threshold, one operator decides whatever the amount.
    expect((await setNetwork({ secondApprovalAbove: null })).data.secondApprovalAbove).toBeNull();
    const any = await apply(alice, '90');
    expect((await decide(op2, any.id, 'approve')).data.status).toBe('queued');
    expect((await setNetwork({ secondApprovalAbove: '70' })).code).toBe(0);
  });

  it('the database itself refuses a first approver approving the second time', async () => {
    const big = await apply(bob, '85');
    expect((await decide(op1, big.id, 'approve')).data.status).toBe('review');
    await expect(
      t.database.sql.query("update withdrawals set status = 'queued', reviewed_by = $2 where id = $1", [big.id, op1.uid]),
    ).rejects.toThrow(/withdrawals_four_eyes_check/);
    // straight through the SQL function: the same refusal as the API's
    await expect(t.database.sql.query("select coffer_withdraw_approve($1, $2, $3, 'again')", [big.id, op1.uid, op1.email])).rejects.toThrow(
      /second, different operator/,
    );
    expect((await decide(op2, big.id, 'approve')).data.status).toBe('queued');
  });

  it('refuses bad input: settings, reasons, unknown and decided withdrawals, non-operators', async () => {
    for (const [changes, code] of [
      [{ secondApprovalAbove: '-1' }, 1001],
      [{ secondApprovalAbove: 'lots' }, 1001],
      [{ secondApprovalAbove: '0.0000000000000000001' }, 1001],
      [{ explorerUrl: 'ftp://scan.example/{address}' }, 1001],
      [{ explorerUrl: 'https://etherscan.io/address/' }, 1001],
      [{ explorerUrl: 'https://scan.example/a\u0007/{address}' }, 1001],
      [{ explorerUrl: 'javascript:alert(1)//{address}' }, 1001],
    ] as const) {
      const res = await setNetwork(changes);
      expect([res.code, changes]).toEqual([code, changes]);
    }
    // more decimals than the network keeps (USDT: 6) is the SQL function's refusal, naming the setting
    const usdt = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'USDT')!;
    const fine = await call('POST', `/api/admin/networks/${usdt.id}`, {
      token: op1.token,
      body: { changes: { secondApprovalAbove: '1000.1234567' }, reason: 'review test' },
    });
    expect(fine.code).toBe(3027);
    const big = await apply(alice, '95');
    expect((await decide(op1, big.id, 'approve', '')).code).toBe(1001);
    expect((await decide(op1, big.id, 'approve', 'line\u0000break')).code).toBe(1001);
    expect((await decide(alice, big.id, 'approve')).status).toBe(403);
    expect((await decide(op1, 987_654_321, 'approve')).code).toBe(4004);
    expect((await rowOf(big.id)).firstApproval).toBeNull();
    expect((await decide(op1, big.id, 'reject')).data.status).toBe('rejected');
    expect((await decide(op2, big.id, 'approve')).code).toBe(3007);
  });
});
