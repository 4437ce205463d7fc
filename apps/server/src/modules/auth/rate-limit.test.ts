import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type Api, apiOf, sendMailUrl, signUp } from './test-helpers.ts';

// RATE_LIMIT defaults to on: this app has the limits production has.
describe('rate limits (RATE_LIMIT on)', () => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await createTestApp();
    api = apiOf(t);
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
    }
    const zh = await login('spray-last@coffer.test', ip);
    expect(zh).toMatchObject({ status: 429, code: 1002, message: '请求过于频繁，请稍后再试' });
    const en = await login('spray-last@coffer.test', ip, 'en-US');
    expect(en).toMatchObject({ status: 429, code: 1002, message: 'Too many requests, please try again later' });
    expect((await login('spray-last@coffer.test', '203.0.113.2')).code).toBe(2002);
  });

  it('limits login to 10 per 15 minutes per address, from any IP', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await login('victim@coffer.test', `198.51.100.${i + 1}`)).code).toBe(2002);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'Victim@Coffer.test', password: 'victim-password' },
      remoteAddress: '198.51.100.200',
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ code: 1002, message: 'Too many requests, please try again later', data: null });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Another address from the same IP is unaffected.
    expect((await login('someone-else@coffer.test', '198.51.100.200')).code).toBe(2002);
  });

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
