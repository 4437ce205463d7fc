import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';

/**
 * TRUST_PROXY=true trusted every X-Forwarded-For hop, so the client's own left-most entry
 * became request.ip and a client could pick a new IP for every request: per-IP limits did
 * not hold. Now only a hop count or a list of the proxies' addresses is accepted.
 */
describe('TRUST_PROXY configuration', () => {
  it('is false by default', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: ' ' }).TRUST_PROXY).toBe(false);
  });

  it('takes a hop count', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
  });

  it('takes a list of proxy addresses and CIDRs', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8 , ::1, loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it('refuses true with a message that says what to set instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    try {
      loadConfig({ TRUST_PROXY: 'true' });
    } catch (e) {
      expect((e as Error).message).toContain('TRUST_PROXY');
      expect((e as Error).message).toMatch(/number of proxies|hop count/);
    }
  });

  it('refuses malformed values', () => {
    for (const bad of ['0', '-1', '1.5', 'yes', '10.0.0.300', '10.0.0.0/33', '::1/129', 'proxy.example.com', '10.0.0.1,,']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
  });
});

describe('client IP behind a proxy', () => {
  const login = (t: TestApp, remoteAddress: string, xff: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: `nobody${Math.random()}@coffer.test`, password: 'guess-password' },
      remoteAddress,
      headers: { 'x-forwarded-for': xff },
    });

  describe('TRUST_PROXY=1 (one proxy in front)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ TRUST_PROXY: '1' });
    });
    afterAll(() => t.close());

    it('a spoofed X-Forwarded-For does not change the IP the per-IP login limit counts', async () => {
      // The proxy appends the address it saw; the client chose everything before it.
      for (let i = 0; i < 30; i++) {
        const res = await login(t, '10.0.0.2', `198.18.0.${i + 1}, 203.0.113.77`);
        expect(res.json().code).toBe(2002);
      }
      const res = await login(t, '10.0.0.2', '198.18.1.1, 203.0.113.77');
      expect(res.statusCode).toBe(429);
      expect(res.json().code).toBe(1002);
      // Another real client behind the same proxy has its own count.
      expect((await login(t, '10.0.0.2', '198.18.0.1, 203.0.113.78')).json().code).toBe(2002);
    });
  });

  describe('TRUST_PROXY=<proxy addresses>', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ TRUST_PROXY: '10.0.0.0/8' });
    });
    afterAll(() => t.close());

    it('takes the client from the right-most untrusted hop, and ignores the header from non-proxies', async () => {
      for (let i = 0; i < 30; i++) {
        // Through the trusted proxy: the client is 203.0.113.88 whatever it put in front.
        const res = await login(t, '10.1.2.3', `198.18.2.${i + 1}, 203.0.113.88`);
        expect(res.json().code).toBe(2002);
      }
      expect((await login(t, '10.9.9.9', '198.18.3.1, 203.0.113.88')).statusCode).toBe(429);

      // Straight from the internet: X-Forwarded-For is the client's own word and is ignored.
      for (let i = 0; i < 30; i++) {
        const res = await login(t, '192.0.2.99', `198.18.4.${i + 1}`);
        expect(res.json().code).toBe(2002);
      }
      expect((await login(t, '192.0.2.99', '198.18.5.1')).statusCode).toBe(429);
    });
  });
});
