import type { LoginData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type Client, client } from '../../test/users.ts';
import { signUp } from './test-helpers.ts';

/**
 * Before: 10 wrong logins for an address, from anywhere, answered 429 to everyone for 15
 * minutes, renewable forever, so anybody could lock the owner out without the password.
 * Now the strict limit is per (address, client IP), and per address the server only slows
 * down: a delay that grows with the wrong tries and stops growing at 4 s.
 */
describe('login limits that do not lock the owner out (RATE_LIMIT on)', () => {
  let t: TestApp;
  let api: Client;
  const owner = 'owner@coffer.test';
  const ownerPassword = 'owner-Password-1';
  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
    await signUp(t, owner, ownerPassword);
  });
  afterAll(() => t.close());

  const login = (password: string, ip: string, email = owner) =>
    api<LoginData>('POST', '/api/login', { body: { email, password }, ip, lang: 'en-US' });

  it('after wrong logins from 20 other IPs the owner still signs in from a fresh IP, slowed down at most 4 s', async () => {
    const attack = await Promise.all(Array.from({ length: 20 }, (_, i) => login('guess-password', `198.51.100.${i + 1}`)));
    expect(attack.map((r) => r.code)).toEqual(Array(20).fill(2002));

    const started = performance.now();
    const res = await login(ownerPassword, '192.0.2.200');
    const took = performance.now() - started;
    expect(res.code).toBe(0);
    expect(res.data.token).toBeTruthy();
    // Slowed down (the attack made the address expensive to guess), but bounded.
    expect(took).toBeGreaterThanOrEqual(3_900);
    expect(took).toBeLessThan(4_000 + 2_000);
  });

  it('limits one IP to 10 logins per 15 minutes for one address, strictly (429 even with the right password)', async () => {
    const ip = '203.0.113.40';
    const tries = await Promise.all(Array.from({ length: 10 }, () => login('guess-password', ip)));
    expect(tries.map((r) => r.code)).toEqual(Array(10).fill(2002));

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'Owner@Coffer.test', password: ownerPassword },
      remoteAddress: ip,
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ code: 1002, message: 'Too many requests, please try again later', data: null });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(14 * 60);

    // The same IP may still sign in to another account, and the owner from elsewhere.
    expect((await login('guess-password', ip, 'someone-else@coffer.test')).code).toBe(2002);
    expect((await login(ownerPassword, '192.0.2.201')).code).toBe(0);
  });

  it('the delay grows with the wrong tries in the window and is bounded', async () => {
    const { loginDelayMs, LOGIN_SLOWDOWN } = await import('./login-limits.ts');
    expect(LOGIN_SLOWDOWN).toMatchObject({ freeAttempts: 5, baseMs: 250, maxMs: 4_000, windowMs: 15 * 60_000 });
    const delays = Array.from({ length: 14 }, (_, i) => loginDelayMs(i + 1));
    expect(delays).toEqual([0, 0, 0, 0, 0, 250, 500, 1_000, 2_000, 4_000, 4_000, 4_000, 4_000, 4_000]);
    expect(loginDelayMs(1_000_000)).toBe(4_000);
  });

  it('a successful login does not count toward the slowdown', async () => {
    const fresh = 'fresh-owner@coffer.test';
    await signUp(t, fresh, ownerPassword);
    for (let i = 0; i < 8; i++) {
      const started = performance.now();
      expect((await login(ownerPassword, `192.0.2.${10 + i}`, fresh)).code).toBe(0);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});
