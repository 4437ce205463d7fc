import type { AdminNetwork, DepositAddress, NetworkUpdateData } from '@coffer/contract';
import { createWalletClient, getAddress, http } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { ANVIL_TEST_MNEMONIC } from '../../chain/keys.ts';
import { testTokenAbi, testTokenBytecode } from '../../chain/test-token.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';

/** Network settings as operator data (drizzle/0038, docs/decisions/041): list, change, refusals, audit. */
describe('admin: network settings', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let user: TestUser;
  let nets: Record<string, AdminNetwork>;

  const list = async () => (await call<AdminNetwork[]>('GET', '/api/admin/networks', { token: operator.token })).data;
  const set = (id: number, changes: Record<string, unknown>, reason: unknown = 'operator test', lang?: string) =>
    call<NetworkUpdateData>('POST', `/api/admin/networks/${id}`, { token: operator.token, body: { changes, reason }, lang });
  const actions = () =>
    t.database.sql.query<{
      actor: string;
      actor_user_id: number | null;
      target_id: string;
      reason: string;
      before: Record<string, unknown>;
      after: Record<string, unknown>;
    }>(`select actor, actor_user_id, target_id, reason, before, after from operator_actions where action = 'network.update' order by id`);
  const local = () => t.chain.live!.local!;
  /** A real ERC-20 of its own on the test's anvil (the test token, with the decimals given). */
  const deployToken = async (decimals: number) => {
    const wallet = createWalletClient({
      account: mnemonicToAccount(ANVIL_TEST_MNEMONIC, { addressIndex: 3 }),
      chain: {
        id: 31337,
        name: 'anvil',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [local().url] } },
      },
      transport: http(local().url),
    });
    const hash = await wallet.deployContract({ abi: testTokenAbi, bytecode: testTokenBytecode, args: ['Other', 'OTH', decimals] });
    return getAddress((await local().client.waitForTransactionReceipt({ hash })).contractAddress!);
  };

  beforeAll(async () => {
    t = await createTestApp({}, { chain: true });
    call = client(t);
    operator = await createUser(t, { email: 'ops@networks.test', role: 'operator' });
    user = await createUser(t, { email: 'someone@networks.test' });
    // the networks of the test's one chain (the local L2's are listed too, not served: LOCAL_L2 is off)
    nets = Object.fromEntries((await list()).filter((n) => n.chainId === 31337).map((n) => [n.code, n]));
  });
  afterAll(() => t.close());

  it('refuses signed-out callers (2001) and non-operators (403)', async () => {
    const body = { changes: { confirmations: 4 }, reason: 'x' };
    for (const [method, url] of [
      ['GET', '/api/admin/networks'],
      ['POST', `/api/admin/networks/${nets.ETH!.id}`],
    ] as const) {
      expect((await call(method, url, { body: method === 'POST' ? body : undefined })).code, url).toBe(2001);
      const res = await call(method, url, { token: user.token, body: method === 'POST' ? body : undefined });
      expect(res, url).toMatchObject({ status: 403, code: 4003 });
    }
    expect((await list()).find((n) => n.code === 'ETH')!.confirmations).toBe(3);
    expect(await actions()).toEqual([]);
  });

  it('lists every network with every setting as exact strings', () => {
    expect(nets.ETH).toMatchObject({
      chainId: 31337,
      native: true,
      local: true,
      served: true,
      contract: null,
      tokenDecimals: 18,
      amountDecimals: 18,
      confirmations: 3,
      minDeposit: '0.001',
      withdrawFee: '0.0005',
      minWithdraw: '0.002',
      maxWithdraw: '100',
      dailyWithdrawLimit: '200',
      reviewThreshold: '50',
      depositEnabled: true,
      withdrawEnabled: true,
      gasPriceCapWei: '200000000000',
      maxFeeBumps: 5,
      feeMarginPercent: 20,
      hotCeiling: null,
      hotFloor: null,
      coldAddress: null,
      payoutsFrozen: false,
    });
    expect(nets.USDT).toMatchObject({ native: false, contract: local().tokens.USDT, tokenDecimals: 6, amountDecimals: 6 });
  });

  it('changes every setting, each with an audit row holding the record before and after', async () => {
    const cold = '0x00000000000000000000000000000000c01dc01d';
    const valid: [string, unknown, unknown][] = [
      ['confirmations', 7, 7],
      ['minDeposit', '0.005', '0.005'],
      ['withdrawFee', '0.001', '0.001'],
      ['minWithdraw', '0.01', '0.01'],
      ['maxWithdraw', '50.5', '50.5'],
      ['dailyWithdrawLimit', '60', '60'],
      ['reviewThreshold', null, null],
      ['reviewThreshold', '25', '25'],
      ['depositEnabled', false, false],
      ['withdrawEnabled', false, false],
      ['gasPriceCapWei', '30000000000', '30000000000'],
      ['gasPriceCapWei', null, null],
      ['maxFeeBumps', 0, 0],
      ['feeMarginPercent', 500, 500],
      ['coldAddress', cold, getAddress(cold)],
      ['hotCeiling', '20', '20'],
      ['hotFloor', '5', '5'],
    ];
    const id = nets.ETH!.id;
    for (const [key, value, shown] of valid) {
      const before = (await list()).find((n) => n.id === id)!;
      const res = await set(id, { [key]: value }, `set ${key}`);
      expect(res, key).toMatchObject({ code: 0, data: { [key]: shown, changed: true } });
      const row = (await actions()).at(-1)!;
      expect(row, key).toMatchObject({ actor: operator.email, actor_user_id: operator.uid, target_id: String(id), reason: `set ${key}` });
      expect(row.before[key], key).toEqual((before as Record<string, unknown>)[key]);
      expect(row.after[key], key).toEqual(shown);
    }
    expect(await actions()).toHaveLength(valid.length);
    // The same again: nothing written, no audit row.
    expect(await set(id, { confirmations: 7, hotFloor: '5' })).toMatchObject({ code: 0, data: { changed: false } });
    expect(await actions()).toHaveLength(valid.length);
  });

  it('refuses each setting out of range or inconsistent (3027, naming it), leaving the network as it was', async () => {
    const id = nets.USDC!.id;
    const invalid: [Record<string, unknown>, string][] = [
      [{ confirmations: 0 }, 'confirmations'],
      [{ confirmations: 1001 }, 'confirmations'],
      [{ tokenDecimals: 37 }, 'tokenDecimals'],
      [{ minDeposit: '0' }, 'minDeposit'],
      [{ minDeposit: '0.0000001' }, 'minDeposit'],
      [{ withdrawFee: '0.1234567' }, 'withdrawFee'],
      [{ minWithdraw: '0' }, 'minWithdraw'],
      [{ minWithdraw: '200000' }, 'maxWithdraw'],
      [{ maxWithdraw: '1' }, 'maxWithdraw'],
      [{ dailyWithdrawLimit: '99999' }, 'dailyWithdrawLimit'],
      [{ reviewThreshold: '0' }, 'reviewThreshold'],
      [{ maxFeeBumps: 51 }, 'maxFeeBumps'],
      [{ maxFeeBumps: -1 }, 'maxFeeBumps'],
      [{ feeMarginPercent: 501 }, 'feeMarginPercent'],
      [{ hotCeiling: '0', coldAddress: '0x00000000000000000000000000000000000000c0' }, 'hotCeiling'],
      [{ hotCeiling: '10' }, 'coldAddress'],
      [{ hotCeiling: '10', hotFloor: '10', coldAddress: '0x00000000000000000000000000000000000000c0' }, 'hotFloor'],
      [{ coldAddress: local().tokens.USDT }, 'coldAddress'],
      [{ contract: local().tokens.USDT }, 'contract'],
    ];
    const before = (await list()).find((n) => n.id === id);
    for (const [changes, field] of invalid) {
      const res = await set(id, changes, 'bad', 'en-US');
      expect(res, JSON.stringify(changes)).toMatchObject({ code: 3027, message: `Invalid network setting: ${field}` });
    }
    expect(await set(nets.ETH!.id, { contract: local().tokens.USDC })).toMatchObject({ code: 3027 });
    expect(await set(nets.ETH!.id, { tokenDecimals: 6 })).toMatchObject({ code: 3027 });
    expect((await set(id, { confirmations: 0 }, 'bad')).message).toBe('网络设置无效：confirmations');
    expect((await list()).find((n) => n.id === id)).toEqual(before);
  });

  it('refuses malformed requests (1001) and an unknown network (4004)', async () => {
    const id = nets.USDC!.id;
    const bad: [Record<string, unknown>, unknown][] = [
      [{}, 'x'],
      [{ confirmations: '3' }, 'x'],
      [{ confirmations: 3.5 }, 'x'],
      [{ depositEnabled: 'yes' }, 'x'],
      [{ minWithdraw: '1e3' }, 'x'],
      [{ minWithdraw: 1 }, 'x'],
      [{ gasPriceCapWei: '0' }, 'x'],
      [{ gasPriceCapWei: '1.5' }, 'x'],
      [{ coldAddress: '0x1234' }, 'x'],
      [{ contract: 'not an address' }, 'x'],
      [{ sort: 1 }, 'x'],
      [{ confirmations: 4 }, ''],
      [{ confirmations: 4 }, 'with\u0000control'],
    ];
    for (const [changes, reason] of bad) {
      expect((await set(id, changes, reason)).code, JSON.stringify([changes, reason])).toBe(1001);
    }
    const noReason = await call('POST', `/api/admin/networks/${id}`, { token: operator.token, body: { changes: { confirmations: 4 } } });
    expect(noReason.code).toBe(1001);
    expect((await set(99999, { confirmations: 4 })).code).toBe(4004);
    expect(
      (await call('POST', '/api/admin/networks/abc', { token: operator.token, body: { changes: { confirmations: 4 }, reason: 'x' } })).code,
    ).toBe(1001);
  });

  it('the SQL function alone refuses what a caller without the schema might pass, and needs a reason', async () => {
    const sqlSet = (changes: string, reason: string | null = 'direct') =>
      t.database.sql
        .query('select coffer_network_set($1, $2::jsonb, $3, null, $4, $5)', [
          nets.USDC!.id,
          changes,
          t.chain.hotAddress,
          'sql test',
          reason,
        ])
        .then(
          () => 'ok',
          (e: { code?: string; cause?: { code?: string } }) => e.cause?.code ?? e.code,
        );
    for (const bad of ['{"confirmations": "abc"}', '{"confirmations": 2.5}', '{"sort": 1}', '{"minDeposit": {"a": 1}}', '[1]']) {
      expect(await sqlSet(bad), bad).toBe('CN027');
    }
    expect(await sqlSet('{"minDeposit": "1e30"}')).toBe('CN027');
    expect(await sqlSet('{"confirmations": 4}', ' ')).toBe('22023');
    expect(await sqlSet('{"confirmations": 4}', null)).toBe('22023');
    expect((await list()).find((n) => n.id === nets.USDC!.id)!.confirmations).toBe(3);
  });

  it('asks a token contract for decimals() on the chain: a real token passes, anything else is 3030', async () => {
    const id = nets.USDT!.id;
    const [six, eighteen] = [await deployToken(6), await deployToken(18)];
    const moved = await set(id, { contract: six.toLowerCase() }, 'a new token contract');
    expect(moved).toMatchObject({ code: 0, data: { contract: six, tokenDecimals: 6, changed: true } });
    expect((await actions()).at(-1)).toMatchObject({ before: { contract: local().tokens.USDT }, after: { contract: six } });
    const eoa = '0x00000000000000000000000000000000000000e0';
    const noCode = await set(id, { contract: eoa }, 'x', 'en-US');
    expect(noCode).toMatchObject({ code: 3030 });
    expect(noCode.message).toContain('does not answer decimals()');
    const wrongScale = await set(id, { contract: eighteen }, 'x', 'en-US');
    expect(wrongScale).toMatchObject({ code: 3030 });
    expect(wrongScale.message).toContain('answers 18 decimals, the setting says 6');
    expect((await set(id, { tokenDecimals: 18 }, 'x')).message).toContain('合约精度为 6');
    // Contract and decimals together: the 18-decimal token with 18 (amounts then kept in the
    // currency's 6), and back.
    expect(await set(id, { contract: eighteen, tokenDecimals: 18 }, 'x')).toMatchObject({
      code: 0,
      data: { tokenDecimals: 18, amountDecimals: 6 },
    });
    expect(await set(id, { contract: local().tokens.USDT, tokenDecimals: 6 }, 'back')).toMatchObject({
      code: 0,
      data: { contract: getAddress(local().tokens.USDT) },
    });
    // Without a contract (a token network neither watched nor paid out) the decimals are free.
    expect(await set(id, { contract: null }, 'unset')).toMatchObject({ code: 0, data: { contract: null } });
    expect(await set(id, { tokenDecimals: 8 }, 'rescale')).toMatchObject({ code: 0, data: { tokenDecimals: 8 } });
    expect((await set(id, { contract: local().tokens.USDT }, 'x')).code).toBe(3030);
    expect(await set(id, { contract: local().tokens.USDT, tokenDecimals: 6 }, 'back')).toMatchObject({
      code: 0,
      data: { tokenDecimals: 6 },
    });
  });

  it('a network on a non-local chain must keep a gas price cap (3028)', async () => {
    const [row] = await t.database.sql.query<{ id: number }>(
      `insert into networks (currency_id, name, chain_id, native, token_decimals, confirmations, min_deposit, withdraw_fee,
                             min_withdraw, max_withdraw, daily_withdraw_limit, gas_price_cap_wei, sort)
       select currency_id, 'Ethereum (mainnet)', 1, true, 18, 12, 0.01, 0.001, 0.01, 10, 20, 50000000000, 9 from networks where id = $1
       returning id`,
      [nets.ETH!.id],
    );
    const mainnet = (await list()).find((n) => n.id === row!.id)!;
    expect(mainnet).toMatchObject({ local: false, served: false, gasPriceCapWei: '50000000000' });
    expect(await set(row!.id, { gasPriceCapWei: null }, 'x', 'en-US')).toMatchObject({
      code: 3028,
      message: 'A network on a non-local chain needs a gas price cap',
    });
    expect(await set(row!.id, { gasPriceCapWei: '80000000000' })).toMatchObject({ code: 0, data: { gasPriceCapWei: '80000000000' } });
    await t.database.sql.query('delete from networks where id = $1', [row!.id]);
  });

  it('a UTXO network (LTC regtest) is edited without a gas cap; EVM-only settings on it are refused (3027)', async () => {
    const ltc = (await list()).find((n) => n.chainId === 2147418146)!;
    expect(ltc).toMatchObject({ code: 'LTC', family: 'utxo', native: true, contract: null, tokenDecimals: 8, gasPriceCapWei: null });
    expect(await set(ltc.id, { confirmations: 6 }, 'deeper on LTC')).toMatchObject({ code: 0, data: { confirmations: 6, changed: true } });
    expect(await set(ltc.id, { withdrawFee: '0.002', maxFeeBumps: 3 }, 'fee')).toMatchObject({
      code: 0,
      data: { withdrawFee: '0.002', maxFeeBumps: 3, changed: true },
    });
    expect((await actions()).at(-1)).toMatchObject({ reason: 'fee', target_id: String(ltc.id) });
    const evmOnly: [Record<string, unknown>, string][] = [
      [{ gasPriceCapWei: '30000000000' }, 'gasPriceCapWei'],
      [{ contract: local().tokens.USDT }, 'contract'],
      [{ tokenDecimals: 18 }, 'tokenDecimals'],
    ];
    for (const [changes, field] of evmOnly) {
      const res = await set(ltc.id, changes, 'evm only', 'en-US');
      expect(res, field).toMatchObject({ code: 3027, message: `Invalid network setting: ${field}` });
    }
    expect((await list()).find((n) => n.id === ltc.id)).toMatchObject({ confirmations: 6, gasPriceCapWei: null, contract: null });
  });

  it('refuses a cold address the server holds the key of: the hot wallet or a deposit address (3029)', async () => {
    const id = nets.USDC!.id;
    const { address } = (
      await call<DepositAddress>('POST', '/api/deposit/createAddress', {
        token: user.token,
        body: { currencyId: nets.USDC!.currencyId, networkId: id },
      })
    ).data;
    for (const own of [t.chain.hotAddress, t.chain.hotAddress.toLowerCase(), address]) {
      expect(await set(id, { coldAddress: own }), own).toMatchObject({ code: 3029 });
    }
    expect((await list()).find((n) => n.id === id)!.coldAddress).toBeNull();
  });
});
