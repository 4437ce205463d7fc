/**
 * The planted sender bug of docs/decisions/038: a withdrawal paid on chain and also refunded
 * in the ledger (money created). The hot wallet's float used to cover the loss, so the old
 * inequality said ok; reconciliation must find a drift of exactly the amount, to the wei.
 */
import type { ReconcileData } from '@coffer/contract';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../ledger/audit.ts';
import { bookGenesisFunding } from './funding.ts';
import { gasBook } from './gas-book.ts';
import {
  applyWithdrawal,
  creditDeposit,
  depositAddressFor,
  newUser,
  type PayoutEnv,
  randomAddress,
  setupPayoutEnv,
  withdrawal,
} from './payout-test-support.ts';
import { reconcile } from './reconcile.ts';
import { WithdrawalSender } from './sender.ts';

let env: PayoutEnv;
beforeAll(async () => {
  env = await setupPayoutEnv();
  await bookGenesisFunding(env.database, env.client, 31337, env.hot.address, env.chain.hotFunding);
});
afterAll(async () => {
  await env?.close();
});

const row = (data: ReconcileData, code: string) => {
  const r = data.rows.find((x) => x.code === code);
  if (!r) throw new Error(`no row for ${code}`);
  return r;
};

describe('planted bug: a withdrawal paid on chain and refunded in the ledger', () => {
  it('reconcile finds a drift of exactly minus the amount and freezes ETH payouts; the audit fails', async () => {
    const uid = await newUser(env);
    const { address } = await depositAddressFor(env, uid);
    await creditDeposit(env, uid, 'ETH', address, '5', await env.chain.faucet(address, 'ETH', parseEther('5')));
    const before = await reconcile({ database: env.database, client: env.client, wallet: env.wallet, chainId: 31337 });
    expect(row(before, 'ETH')).toMatchObject({ drift: '0', ok: true });

    const id = await applyWithdrawal(env, uid, 'ETH', randomAddress(), '0.32');
    const sender = new WithdrawalSender({ database: env.database, client: env.client, hot: env.hot, chainId: 31337 });
    await sender.tick();
    await sender.tick();
    expect((await withdrawal(env, id)).status).toBe('confirming');
    // the bug: the payout is mined, and the withdrawal is refunded as if it had failed
    await env.database.sql.query(`select coffer_withdraw_refund($1, 'failed', 'planted bug', array['confirming'], null)`, [id]);
    await gasBook({ database: env.database, client: env.client, chainId: 31337 });

    const data = await reconcile({ database: env.database, client: env.client, wallet: env.wallet, chainId: 31337 });
    expect(row(data, 'ETH')).toMatchObject({ drift: '-0.32', ok: false });
    expect(row(data, 'USDT')).toMatchObject({ drift: '0', ok: true });
    const incidents = await env.database.sql.query<{ detail: string }>(
      `select detail from chain_incidents where network_id = $1 and kind = 'reconcile_drift' and resolved_at is null`,
      [env.nets.ETH],
    );
    expect(incidents).toHaveLength(1);
    const [frozen] = await env.database.sql.query<{ f: boolean }>('select chain_payouts_frozen($1) as f', [env.nets.ETH]);
    expect(frozen?.f).toBe(true);

    const audit = await auditLedger(env.database);
    expect(audit.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['refunded_withdrawal_paid_on_chain']);
  });
});
