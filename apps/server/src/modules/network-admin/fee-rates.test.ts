import type { AdminNetwork, NetworkUpdateData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';

/**
 * A UTXO network's payout fee rate floor and cap (drizzle/0064, docs/decisions/051-utxo-payouts.md):
 * set and audited like the EVM gas price cap, refused out of range, cap below floor, or on an
 * EVM network, in the operator's language.
 */
describe('admin: fee rate floor and cap of a UTXO network', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let ltc: AdminNetwork;
  let eth: AdminNetwork;

  const set = (n: AdminNetwork, changes: Record<string, unknown>, lang?: string) =>
    call<NetworkUpdateData>('POST', `/api/admin/networks/${n.id}`, { token: operator.token, lang, body: { changes, reason: 'fee rates' } });

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
    operator = await createUser(t, { role: 'operator' });
    const all = (await call<AdminNetwork[]>('GET', '/api/admin/networks', { token: operator.token })).data;
    ltc = all.find((n) => n.family === 'utxo')!;
    eth = all.find((n) => n.code === 'ETH' && n.family === 'evm')!;
  });
  afterAll(() => t?.close());

  it('starts at 1 and 500 per vbyte on the UTXO network, none on an EVM network', () => {
    expect(ltc).toMatchObject({ feeRateFloor: '1', feeRateCap: '500' });
    expect(eth).toMatchObject({ feeRateFloor: null, feeRateCap: null });
  });

  it('sets both with an audit row holding the record before and after; the payouts read them', async () => {
    const res = await set(ltc, { feeRateFloor: '2', feeRateCap: '80' });
    expect(res).toMatchObject({ code: 0, data: { feeRateFloor: '2', feeRateCap: '80', changed: true } });
    const [row] = await t.database.sql.query<{ before: Record<string, unknown>; after: Record<string, unknown> }>(
      `select before, after from operator_actions where action = 'network.update' and target_id = $1 order by id desc limit 1`,
      [String(ltc.id)],
    );
    expect(row).toMatchObject({ before: { feeRateFloor: '1', feeRateCap: '500' }, after: { feeRateFloor: '2', feeRateCap: '80' } });
    const [stored] = await t.database.sql.query<{ floor: string; cap: string }>(
      'select fee_rate_floor::text as floor, fee_rate_cap::text as cap from networks where id = $1',
      [ltc.id],
    );
    expect(stored).toEqual({ floor: '2', cap: '80' });
  });

  it('refuses a cap below the floor, a rate out of range, none on a UTXO network, any on an EVM network (3027, naming it)', async () => {
    const en = await set(ltc, { feeRateCap: '1' }, 'en-US');
    expect(en).toMatchObject({ code: 3027, message: expect.stringContaining('feeRateCap') });
    expect((await set(ltc, { feeRateFloor: null })).code).toBe(3027);
    expect((await set(eth, { feeRateFloor: '5', feeRateCap: '10' })).code).toBe(3027);
    // shapes the contract refuses before the database sees them
    expect((await set(ltc, { feeRateCap: '1.5' })).code).toBe(1001);
    expect((await set(ltc, { feeRateCap: '0' })).code).toBe(1001);
    const zh = await set(ltc, { feeRateCap: '1' }, 'zh-CN');
    expect(zh.code).toBe(3027);
    expect(zh.message).not.toBe(en.message);
    const [stored] = await t.database.sql.query<{ floor: string; cap: string }>(
      'select fee_rate_floor::text as floor, fee_rate_cap::text as cap from networks where id = $1',
      [ltc.id],
    );
    expect(stored).toEqual({ floor: '2', cap: '80' });
  });
});
