import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

describe('app core', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers health with the database kind', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 0, data: { database: expect.any(String) } });
  });

  it('answers unknown API routes with 404 and the envelope, in the asked language', async () => {
    const zh = await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(zh.statusCode).toBe(404);
    expect(zh.json()).toEqual({ code: 4004, message: '记录不存在', data: null });
    const en = await t.app.inject({ method: 'GET', url: '/api/no-such-route', headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(en.json().message).toBe('Not found');
  });

  it('serves the OpenAPI document generated from the contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
  });
});
