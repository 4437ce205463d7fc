import fs from 'node:fs';
import path from 'node:path';
import type { DepositAddress, Network, WithdrawRecord } from '@coffer/contract';
import { erc20Abi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../ledger/audit.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { applyWithdraw } from '../test/withdraw.ts';
import { client, createUser, type TestUser } from '../test/users.ts';
import { SignerKeyring } from './client.ts';
import { SIGNER_JOURNAL_FILE_NAME } from './embedded.ts';
import type { JournalEntry } from './journal.ts';

/**
 * End to end on a real anvil with the signer as a child process (embedded mode as `npm start`
 * runs it): the server holds only the xpub and the hot address; a token deposit is swept (gas
 * top-up by the hot key, sweep by the deposit key) and an ETH withdrawal is paid, every
 * signature asked of the signer over the authenticated channel and written to its journal.
 */
describe('custody through the signer child process', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let nets: Record<string, Network>;
  const outside = '0x8ba1f109551bD432803012645Ac136ddd64DBA72' as const;
  const live = () => t.chain.live!;
  const journal = () =>
    fs
      .readFileSync(path.join(t.config.dataDir, SIGNER_JOURNAL_FILE_NAME), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as JournalEntry);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off', SIGNER: 'child' }, { chain: true });
    call = client(t);
    alice = await createUser(t, { email: 'alice@example.com' });
    nets = Object.fromEntries((await call<Network[]>('GET', '/api/currency/onchain')).data.map((n) => [n.code, n]));
    await live().tick();
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t.close();
  });

  it('the server keeps no key: its keyring forwards to the signer, whose mnemonic file the server never opened', () => {
    expect(t.chain.wallet).toBeInstanceOf(SignerKeyring);
    expect(fs.statSync(path.join(t.config.dataDir, 'wallet-mnemonic')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(t.config.dataDir, 'signer-secret')).mode & 0o777).toBe(0o600);
  });

  it('sweeps a USDT deposit: gas top-up and sweep signed by the signer', async () => {
    const address = (
      await call<DepositAddress>('POST', '/api/deposit/createAddress', {
        token: alice.token,
        body: { currencyId: nets.USDT!.currencyId, networkId: nets.USDT!.id },
      })
    ).data.address as `0x${string}`;
    for (const c of ['ETH', 'USDT']) {
      expect((await call('POST', '/api/deposit/faucet', { token: alice.token, body: { networkId: nets[c]!.id } })).code).toBe(0);
    }
    for (let i = 0; i < 10; i++) {
      await live().tick();
      await live().local!.mine(1);
    }
    const chain = live().local!.client;
    expect(
      await chain.readContract({ address: live().local!.tokens.USDT, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
    ).toBe(0n);
    const lines = journal();
    expect(lines.filter((l) => l.purpose === 'sweep' && l.asset.toLowerCase() === live().local!.tokens.USDT.toLowerCase())).toHaveLength(1);
    expect(lines.some((l) => l.purpose === 'gas_topup' && l.to === address)).toBe(true);
  });

  it('pays an ETH withdrawal through the signer, once', async () => {
    const before = await live().local!.client.getBalance({ address: outside });
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    await call('GET', `/api/sendMail?email=${encodeURIComponent(alice.email)}&type=withdraw`, { token: alice.token });
    const applied = await applyWithdraw(call, {
      token: alice.token,
      body: {
        currencyId: nets.ETH!.currencyId,
        networkId: nets.ETH!.id,
        address: outside,
        amount: '0.25',
        code: await t.mailbox.lastCode(alice.email),
      },
    });
    expect(applied).toMatchObject({ code: 0, data: { status: 'queued' } });
    let status = '';
    for (let i = 0; i < 12 && status !== 'completed'; i++) {
      await live().tick();
      status = (await call<WithdrawRecord>('GET', `/api/withdraw/detail/${applied.data.id}`, { token: alice.token })).data.status;
      await live().local!.mine(1);
    }
    expect(status).toBe('completed');
    expect(await live().local!.client.getBalance({ address: outside })).toBe(before + parseEther('0.25'));
    const payouts = journal().filter((l) => l.purpose === 'withdrawal');
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({ to: outside, amount: parseEther('0.25').toString(), asset: 'native' });
  });
});
