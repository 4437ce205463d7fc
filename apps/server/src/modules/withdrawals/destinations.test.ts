import type { Balance, Network } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { applyWithdraw } from '../../test/withdraw.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

/**
 * Destinations that burn what is sent (docs/security.md, "Unspendable destinations"): the
 * zero address, the precompiles, well-known burn addresses and the token contracts Coffer
 * knows are refused with 3013 before any code is used up, and nothing moves.
 */
describe('withdrawal destinations that burn funds', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let eth: Network;
  let usdt: Network;
  const usdtContract = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

  const codeFor = async (u: TestUser) => {
    await t.database.sql.query("update email_codes set created_at = created_at - interval '2 minutes'");
    const sent = await call('GET', `/api/sendMail?email=${encodeURIComponent(u.email)}&type=withdraw`, { token: u.token });
    expect(sent.code).toBe(0);
    return t.mailbox.lastCode(u.email);
  };
  const apply = async (address: string, lang = 'zh-CN', net = eth) =>
    applyWithdraw(call, {
      token: alice.token,
      lang,
      body: { currencyId: net.currencyId, networkId: net.id, address, amount: '0.01', code: await codeFor(alice) },
    });
  const balance = async () => (await call<Balance>('GET', `/api/currency/balance/${eth.currencyId}`, { token: alice.token })).data;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    alice = await createUser(t, { email: 'burner@example.com' });
    const nets = (await call<Network[]>('GET', '/api/currency/onchain')).data;
    eth = nets.find((n) => n.code === 'ETH')!;
    usdt = nets.find((n) => n.code === 'USDT')!;
    await t.database.sql.query('update networks set contract = $1 where id = $2', [usdtContract, usdt.id]);
    await fund(t, alice.uid, 'ETH', '1');
    await fund(t, alice.uid, 'USDT', '100');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the zero address, precompiles, burn addresses and token contracts with 3013', async () => {
    const before = await balance();
    const burners = [
      '0x0000000000000000000000000000000000000000',
      '0x0000000000000000000000000000000000000001',
      '0x000000000000000000000000000000000000000a',
      '0x0000000000000000000000000000000000000011',
      '0x0000000000000000000000000000000000000100',
      '0x000000000000000000000000000000000000dEaD',
      usdtContract.toLowerCase(),
    ];
    for (const address of burners) {
      const res = await apply(address);
      expect([address, res.code]).toEqual([address, 3013]);
    }
    // The token's own network too: USDT sent to the USDT contract is gone.
    expect((await apply(usdtContract, 'zh-CN', usdt)).code).toBe(3013);
    expect(await balance()).toEqual(before);
    const unused = await t.database.sql.query<{ n: number }>(
      "select count(*)::int as n from email_codes where email = $1 and purpose = 'withdraw' and consumed_at is null",
      [alice.email],
    );
    expect(unused[0]!.n).toBeGreaterThan(0);
  });

  it('says why in both languages', async () => {
    const zh = await apply('0x0000000000000000000000000000000000000000', 'zh-CN');
    expect(zh.message).toMatch(/无法取回/);
    const en = await apply('0x0000000000000000000000000000000000000000', 'en-US');
    expect(en.message).toMatch(/cannot be recovered/);
  });

  it('still pays an ordinary address', async () => {
    const ok = await apply('0x8ba1f109551bD432803012645Ac136ddd64DBA72');
    expect(ok.code).toBe(0);
    // One step past the precompile range is an ordinary account.
    expect((await apply('0x0000000000000000000000000000000000001000')).code).toBe(0);
  });
});
