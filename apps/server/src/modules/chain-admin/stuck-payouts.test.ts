import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

/**
 * An operator's ways out for a stuck payout, through the admin API on a real anvil (the
 * chain leader's workers ticked by hand, automine off so the payout stays unmined).
 */
describe('stuck payout actions (admin API, real anvil)', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  let operator: TestUser;
  let ethNet: number;
  const live = () => t.chain.live!;
  const rpc = (method: string, params: unknown[] = []) => live().local!.client.request({ method, params } as never);
  const apply = async (to: Address) => {
    // a fee quote at the network's minimum fee, as payout-test-support does (these tests are about the payout, not its price)
    const [row] = await t.database.sql.query<{ w_id: number }>(
      `with q as (insert into withdrawal_fee_quotes (user_id, network_id, fee, gas_limit, chain_gas_price_wei, gas_price_wei,
                                                    margin_percent, fees_high, expires_at)
                  select $1, id, withdraw_fee, 21000, 0, 0, 0, false, now() + interval '1 minute' from networks where id = $2 returning id)
       select a.* from q, coffer_withdraw_apply($1, $2, $3, 1, null, null, null, q.id) a`,
      [alice.uid, ethNet, to],
    );
    return Number(row?.w_id);
  };
  const row = async (id: number) =>
    (
      await t.database.sql.query<{ status: string; nonce: number }>('select status, nonce::int as nonce from withdrawals where id = $1', [
        id,
      ])
    )[0]!;
  const frozen = async () =>
    (
      await t.database.sql.query<{ b: string }>(
        `select a.balance::text as b from accounts a join currencies c on c.id = a.currency_id where a.user_id = $1 and a.kind = 'frozen' and c.code = 'ETH'`,
        [alice.uid],
      )
    )[0]?.b;
  const audits = async (id: number) =>
    (
      await t.database.sql.query<{ action: string }>(
        `select action from operator_actions where target_type = 'withdrawal' and target_id = $1`,
        [String(id)],
      )
    ).map((r) => r.action);
  const recipient = () =>
    `0x${crypto.getRandomValues(new Uint8Array(20)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '')}` as Address;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    alice = await createUser(t);
    bob = await createUser(t);
    operator = await createUser(t, { role: 'operator' });
    await fund(t, alice.uid, 'ETH', '10');
    const [net] = await t.database.sql.query<{ id: number }>(
      `select n.id from networks n join currencies c on c.id = n.currency_id where n.chain_id = 31337 and c.code = 'ETH'`,
    );
    ethNet = net!.id;
    await live().tick();
  });
  afterAll(async () => {
    await rpc('evm_setAutomine', [true]).catch(() => {});
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  it('cancel on chain: refused to non-operators and for bad input; the zero-value replacement refunds only once final', async () => {
    const to = recipient();
    const id = await apply(to);
    await rpc('evm_setAutomine', [false]);
    await live().tick();
    expect((await row(id)).status).toBe('broadcast');
    const path = `/api/admin/withdraw/${id}/cancel-on-chain`;
    expect((await call('POST', path, { token: bob.token, body: { reason: 'stuck' } })).code).not.toBe(0);
    expect((await call('POST', path, { token: operator.token, body: { reason: 'bad\u0007' } })).code).not.toBe(0);
    expect((await call('POST', path, { token: operator.token, body: {} })).code).not.toBe(0);
    expect(
      (await call('POST', '/api/admin/withdraw/99999999/cancel-on-chain', { token: operator.token, body: { reason: 'x' } })).code,
    ).toBe(4004);
    expect(await audits(id)).toEqual([]);

    const res = await call<{ status: string; txHash: string }>('POST', path, {
      token: operator.token,
      body: { reason: 'fees spiked, payout stuck' },
    });
    expect(res.code).toBe(0);
    expect(res.data.status).toBe('broadcast');
    expect(await audits(id)).toEqual(['withdrawal.cancel_on_chain']);
    expect(Number(await frozen())).toBeGreaterThan(0); // not refunded: the original could still be mined

    await rpc('evm_setAutomine', [true]);
    await live().local!.mine(1); // the replacement (higher price) is mined, 1 deep of 3
    await live().tick();
    expect((await row(id)).status).toBe('broadcast');
    expect(Number(await frozen())).toBeGreaterThan(0);
    await live().local!.mine(2);
    await live().tick();
    expect((await row(id)).status).toBe('failed');
    expect(Number(await frozen())).toBe(0);
    expect(await live().local!.client.getBalance({ address: to })).toBe(0n);
    // final: a second action is refused
    expect((await call('POST', path, { token: operator.token, body: { reason: 'again' } })).code).toBe(3007);
  });

  it('fail and refund: refused (3023) while an attempt can still be mined, done once the nonce is consumed deep', async () => {
    const to = recipient();
    const id = await apply(to);
    await rpc('evm_setAutomine', [false]);
    await live().tick();
    const { status, nonce } = await row(id);
    expect(status).toBe('broadcast');
    const path = `/api/admin/withdraw/${id}/fail`;
    expect((await call('POST', path, { token: operator.token, body: { reason: 'stuck' } })).code).toBe(3023);
    expect((await call('POST', path, { token: bob.token, body: { reason: 'stuck' } })).code).not.toBe(0);

    // the hot wallet key is used outside Coffer at the payout's nonce (a higher price wins the pool)
    const hot = t.chain.wallet.hotAccount();
    const gasPrice = (await live().local!.client.getGasPrice()) * 3n;
    const raw = await hot.signTransaction({ type: 'legacy', chainId: 31337, nonce, to: hot.address, value: 0n, gas: 21_000n, gasPrice });
    await rpc('eth_sendRawTransaction', [raw]);
    await rpc('evm_setAutomine', [true]);
    await live().local!.mine(3);
    const res = await call<{ status: string }>('POST', path, { token: operator.token, body: { reason: 'nonce used outside Coffer' } });
    expect(res.code).toBe(0);
    expect(res.data.status).toBe('failed');
    expect(await audits(id)).toEqual(['withdrawal.fail_unmineable']);
    expect(await live().local!.client.getBalance({ address: to })).toBe(0n);
  });
});
