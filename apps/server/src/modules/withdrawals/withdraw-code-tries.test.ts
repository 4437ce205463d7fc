import { ErrorCode, type Network } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { MAX_WRONG_TRIES } from '../auth/email-codes.ts';

/** A right e-mail code is not used up by applies refused for another reason; wrong codes still are counted. */
describe('withdrawal e-mail code: only wrong codes count', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let eth: Network;
  const outside = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

  const codeFor = async (u: TestUser) => {
    // Each test starts with a fresh code and a fresh day of the per-address cap on wrong codes.
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    await t.database.sql.query("delete from rate_limits where key like 'email-code-guess:%'");
    const sent = await call('GET', `/api/sendMail?email=${encodeURIComponent(u.email)}&type=withdraw`, { token: u.token });
    expect(sent.code).toBe(0);
    return t.mailbox.lastCode(u.email);
  };
  const apply = (u: TestUser, amount: string, code: string) =>
    applyWithdraw(call, {
      token: u.token,
      body: { currencyId: eth.currencyId, networkId: eth.id, address: outside, amount, code },
    });

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    alice = await createUser(t, { email: 'alice-tries@example.com' });
    eth = (await call<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
    await fund(t, alice.uid, 'ETH', '5');
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  it('keeps a right code alive through applies refused for the balance, then accepts it', async () => {
    const code = await codeFor(alice);
    for (let i = 0; i < MAX_WRONG_TRIES + 2; i++) {
      expect((await apply(alice, '10', code)).code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    }
    const done = await apply(alice, '1', code);
    expect(done.code).toBe(0);
    expect(done.data.status).toBe('queued');
    // Used up by the withdrawal it made.
    expect((await apply(alice, '1', code)).code).toBe(ErrorCode.WRONG_EMAIL_CODE);
  });

  it('still kills a code after MAX_WRONG_TRIES wrong ones, even when guessed in parallel', async () => {
    const code = await codeFor(alice);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: MAX_WRONG_TRIES + 3 }, () => apply(alice, '1', wrong)));
    expect(answers.every((a) => a.code === ErrorCode.WRONG_EMAIL_CODE)).toBe(true);
    expect((await apply(alice, '1', code)).code).toBe(ErrorCode.WRONG_EMAIL_CODE);
  });

  it('right codes in between give their try back, wrong ones do not', async () => {
    const code = await codeFor(alice);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < MAX_WRONG_TRIES - 1; i++) {
      expect((await apply(alice, '1', wrong)).code).toBe(ErrorCode.WRONG_EMAIL_CODE);
      expect((await apply(alice, '10', code)).code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    }
    expect((await apply(alice, '1', code)).code).toBe(0);
  });
});
