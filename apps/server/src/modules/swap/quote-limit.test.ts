import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { SWAP_QUOTES_PER_USER_PER_MINUTE as QUOTES_PER_MINUTE } from './routes.ts';
import { currencyId, makeUser } from './test-support.ts';

// RATE_LIMIT defaults to on: the app has the limits production has.
describe('POST /api/swap/quote is limited per user', () => {
  let t: TestApp;
  let body: { fromCurrencyId: number; toCurrencyId: number; amount: string };
  beforeAll(async () => {
    t = await createTestApp();
    body = { fromCurrencyId: await currencyId(t.database, 'USDT'), toCurrencyId: await currencyId(t.database, 'ETH'), amount: '10' };
  });
  afterAll(() => t.close());

  const quote = (token: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/swap/quote',
      headers: { 'x-token': token, 'accept-language': 'en-US' },
      payload: body,
      remoteAddress: ip,
    });

  it(`answers ${QUOTES_PER_MINUTE} quotes a minute, then 429 with exactly the envelope (code 1002), from any IP`, async () => {
    const user = await makeUser(t.database);
    for (let i = 0; i < QUOTES_PER_MINUTE; i++) {
      // A new IP each time: only a per-user counter can stop it.
      const res = await quote(user.token, `203.0.113.${i + 1}`);
      expect(res.json().code, `quote ${i + 1}`).toBe(0);
    }
    const refused = await quote(user.token, '198.51.100.1');
    expect(refused.statusCode).toBe(429);
    const envelope = refused.json();
    expect(Object.keys(envelope).sort()).toEqual(['code', 'data', 'message']);
    expect(envelope).toMatchObject({ code: 1002, message: 'Too many requests, please try again later' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const [{ n }] = (await t.database.sql.query<{ n: number }>('select count(*)::int as n from swap_quotes where user_id = $1', [
      user.uid,
    ])) as [{ n: number }];
    expect(n).toBe(QUOTES_PER_MINUTE);

    // Another user on the same IP is unaffected.
    const other = await makeUser(t.database);
    expect((await quote(other.token, '198.51.100.1')).json().code).toBe(0);
  });

  it('does not count calls without a session (they answer 2001 before the limiter)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/swap/quote', payload: body });
    expect(res.json().code).toBe(2001);
  });
});
