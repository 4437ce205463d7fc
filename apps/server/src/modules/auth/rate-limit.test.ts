import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type Client, client } from '../../test/users.ts';
import { sendMailUrl, signUp } from './test-helpers.ts';

// RATE_LIMIT defaults to on: this app has the limits production has.
describe('rate limits (RATE_LIMIT on)', () => {
  let t: TestApp;
  let api: Client;
  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
    await signUp(t, 'victim@coffer.test', 'victim-password');
  });
  afterAll(() => t.close());

  const login = (email: string, ip: string, lang?: string) =>
    api('POST', '/api/login', { body: { email, password: 'guess-password' }, ip, lang });

  it('limits login to 30 a minute per IP with HTTP 429 and code 1002', async () => {
    const ip = '203.0.113.1';
    for (let i = 0; i < 30; i++) {
      // A new address each time, so only the IP counter can stop it.
      expect((await login(`spray${i}@coffer.test`, ip)).code).toBe(2002);
      if (i === 0) {
        // The window opened at the first hit; hold it open, so that 30 argon2 checks on a slow
        // runner cannot outlast the minute and start a new window (the count is the real one).
        const held = await t.database.sql.query<{ window_ms: number }>(
          `update rate_limits set reset_at = now() + interval '1 hour' where key = $1 returning window_ms`,
          [`POST /api/login|${ip}`],
        );
        expect(held).toEqual([{ window_ms: 60_000 }]);
      }
    }
    const zh = await login('spray-last@coffer.test', ip);
    expect(zh).toMatchObject({ status: 429, code: 1002, message: '请求过于频繁，请稍后再试' });
    const en = await login('spray-last@coffer.test', ip, 'en-US');
    expect(en).toMatchObject({ status: 429, code: 1002, message: 'Too many requests, please try again later' });
    expect((await login('spray-last@coffer.test', '203.0.113.2')).code).toBe(2002);
  });

  // Per address there is no lock any more (anyone could lock the owner out): the strict limit
  // is per (address, IP), and per address the server slows down. See login-lockout.test.ts.

  it('limits sendMail to 10 a minute per IP, on top of the per-address minute rule', async () => {
    const ip = '192.0.2.7';
    for (let i = 0; i < 10; i++) {
      const res = await api('GET', sendMailUrl(`flood${i}@coffer.test`, 'reset'), { ip });
      expect(res.code).toBe(0);
    }
    const res = await api('GET', sendMailUrl('flood-last@coffer.test', 'reset'), { ip, lang: 'en-US' });
    expect(res).toMatchObject({ status: 429, code: 1002, message: 'Too many requests, please try again later' });
    expect((await api('GET', sendMailUrl('flood-last@coffer.test', 'reset'), { ip: '192.0.2.8' })).code).toBe(0);
  });
});
