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

describe('sign-in is checked before the body on protected routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // Spec §9: a signed-out request is told to sign in (2001) whatever its body; answering
  // "invalid parameters" first would send the client's guard down the wrong path.
  it('answers 2001, not 1001, to a signed-out request with a bad body, on every route that needs a session', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[]; requestBody?: unknown }>>;
    };
    const protectedWithBody = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.security?.length && op.requestBody)
        .map(([method, op]) => ({ method: method.toUpperCase() as 'POST', url: p.replace(/\{[^}]+\}/g, '1'), op })),
    );
    expect(protectedWithBody.length).toBeGreaterThan(5);
    const wrong: string[] = [];
    for (const route of protectedWithBody) {
      const res = await t.app.inject({ method: route.method, url: route.url, payload: { amount: [], email: 7, junk: '\u0000' } });
      if (res.json().code !== 2001) wrong.push(`${route.method} ${route.url} -> ${res.statusCode} ${res.json().code}`);
    }
    expect(wrong).toEqual([]);
  });
});
