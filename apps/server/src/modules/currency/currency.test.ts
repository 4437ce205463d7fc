import type { Balance, Currency } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateCurrencies } from '../../ledger/currencies.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';

describe('currencies and balances', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let user: TestUser;
  let list: Currency[];
  const idOf = (code: string) => list.find((c) => c.code === code)!.id;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    user = await createUser(t);
  });
  afterAll(() => t.close());

  it('lists the currencies publicly, in display order', async () => {
    const res = await call<Currency[]>('GET', '/api/currency/list');
    expect(res).toMatchObject({ status: 200, code: 0, message: '成功' });
    list = res.data;
    expect(list.map((c) => [c.code, c.decimals, c.icon])).toEqual([
      ['USDT', 6, '/currency/usdt.svg'],
      ['USDC', 6, '/currency/usdc.svg'],
      ['ETH', 18, '/currency/eth.svg'],
      ['BTC', 8, '/currency/btc.svg'],
      ['LTC', 8, '/currency/ltc.svg'],
    ]);
    expect(list[0]).toEqual({
      id: expect.any(Number),
      code: 'USDT',
      name: 'Tether USD',
      decimals: 6,
      icon: '/currency/usdt.svg',
      sort: 1,
      enabled: true,
      transferMin: null,
      transferMax: null,
      displayDecimals: 2,
    });
    // Lists and summaries show each currency at its display precision (contract DISPLAY_DECIMALS).
    expect(list.map((c) => [c.code, c.displayDecimals])).toEqual([
      ['USDT', 2],
      ['USDC', 2],
      ['ETH', 6],
      ['BTC', 8],
      ['LTC', 6],
    ]);
    const en = await call('GET', '/api/currency/list', { lang: 'en-US' });
    expect(en.message).toBe('Success');
  });

  it('answers zero balances before any account exists', async () => {
    const res = await call<Balance>('GET', `/api/currency/balance/${idOf('USDT')}`, { token: user.token });
    expect(res.data).toEqual({ currencyId: idOf('USDT'), code: 'USDT', decimals: 6, available: '0', frozen: '0', total: '0' });
    const all = await call<Balance[]>('GET', '/api/currency/balances', { token: user.token });
    expect(all.data.map((b) => [b.code, b.total])).toEqual([
      ['USDT', '0'],
      ['USDC', '0'],
      ['ETH', '0'],
      ['BTC', '0'],
      ['LTC', '0'],
    ]);
  });

  it('answers balances as exact strings in the currency precision', async () => {
    await fund(t, user.uid, 'USDT', '1234.5');
    await fund(t, user.uid, 'ETH', '0.000000000000000001');
    await fund(t, user.uid, 'BTC', '20999999.99999999');
    const usdt = await call<Balance>('GET', `/api/currency/balance/${idOf('USDT')}`, { token: user.token });
    expect(usdt.data).toMatchObject({ available: '1234.5', frozen: '0', total: '1234.5' });
    const all = await call<Balance[]>('GET', '/api/currency/balances', { token: user.token });
    expect(Object.fromEntries(all.data.map((b) => [b.code, b.available]))).toEqual({
      USDT: '1234.5',
      USDC: '0',
      ETH: '0.000000000000000001',
      BTC: '20999999.99999999',
      LTC: '0',
    });
  });

  it('adds frozen to available for the total', async () => {
    // A frozen hold as the withdrawal module will write it: available -> frozen in one entry.
    const usdt = idOf('USDT');
    await t.database.sql.query(
      `with e as (select ledger_open_entry('withdraw_hold_test', null, null, null, null) as id)
       select ledger_post(e.id, array[ledger_account($1, $2, 'available'), ledger_account($1, $2, 'frozen')], array[-0.75, 0.75]::numeric[]) from e`,
      [user.uid, usdt],
    );
    const res = await call<Balance>('GET', `/api/currency/balance/${usdt}`, { token: user.token });
    expect(res.data).toMatchObject({ available: '1233.75', frozen: '0.75', total: '1234.5' });
  });

  it('answers 3003 for unknown and disabled currencies and leaves disabled ones out of the home page', async () => {
    expect(await call('GET', '/api/currency/balance/999', { token: user.token })).toMatchObject({ code: 3003, data: null });
    const en = await call('GET', '/api/currency/balance/999', { token: user.token, lang: 'en-US' });
    expect(en.message).toBe('Currency or network unavailable');
    await t.database.sql.query(`update currencies set enabled = false where code = 'USDC'`);
    invalidateCurrencies(t.database);
    expect((await call('GET', `/api/currency/balance/${idOf('USDC')}`, { token: user.token })).code).toBe(3003);
    const all = await call<Balance[]>('GET', '/api/currency/balances', { token: user.token });
    expect(all.data.map((b) => b.code)).toEqual(['USDT', 'ETH', 'BTC', 'LTC']);
    const listed = await call<Currency[]>('GET', '/api/currency/list');
    expect(listed.data.find((c) => c.code === 'USDC')?.enabled).toBe(false);
    await t.database.sql.query(`update currencies set enabled = true where code = 'USDC'`);
    invalidateCurrencies(t.database);
  });

  it('needs a session for balances and a numeric id', async () => {
    expect(await call('GET', `/api/currency/balance/${idOf('USDT')}`)).toMatchObject({ code: 2001, data: null });
    expect((await call('GET', '/api/currency/balances', { lang: 'en-US' })).message).toBe('Not signed in or session expired');
    expect((await call('GET', '/api/currency/balance/abc', { token: user.token })).code).toBe(1001);
    expect((await call('GET', '/api/currency/balance/0', { token: user.token })).code).toBe(1001);
  });
});
