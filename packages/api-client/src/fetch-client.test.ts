import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, NOT_AN_ENVELOPE } from './api-error.ts';
import { createApiClient, urlOf } from './fetch-client.ts';
import { IDEMPOTENCY_HEADER } from './idempotency.ts';

/** What the server saw of the last call. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let seen: Seen | null = null;
/** The next answer: HTTP status, content type and body text. */
let answer = { status: 200, type: 'application/json', body: '{"code":0,"message":"ok","data":null}' };
let server: http.Server;
let baseUrl = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = null;
});

function answerWith(status: number, body: unknown, type = 'application/json') {
  answer = { status, type, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

const envelopes: unknown[] = [];
const client = () =>
  createApiClient({
    baseUrl,
    timeoutMs: 5_000,
    headers: () => ({ 'x-token': 'Bearer abc', 'accept-language': 'en-US' }),
    onEnvelope: (envelope, sent) => envelopes.push({ code: envelope.code, token: sent['x-token'] }),
  });

describe('the shared API client (docs/product.md §5.2, §5.3, §5.9)', () => {
  it('resolves a success envelope to its data and sends the front end headers', async () => {
    answerWith(200, { code: 0, message: 'ok', data: { uid: 7 } });
    await expect(client().get('/getCurrentUser', { q: 'a b', page: 2, empty: '', none: null })).resolves.toEqual({ uid: 7 });
    expect(seen).toMatchObject({ method: 'GET', url: '/api/getCurrentUser?q=a+b&page=2' });
    expect(seen?.headers['x-token']).toBe('Bearer abc');
    expect(seen?.headers['accept-language']).toBe('en-US');
  });

  it('posts JSON ({} without a body) and the Idempotency-Key when given', async () => {
    answerWith(200, { code: 0, message: 'ok', data: 1 });
    await client().post('/logout');
    expect(seen).toMatchObject({ method: 'POST', body: '{}' });
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers[IDEMPOTENCY_HEADER.toLowerCase()]).toBeUndefined();
    await client().post('/admin/ledger/adjust', { amount: '1.5' }, { idempotencyKey: 'k-1' });
    expect(seen).toMatchObject({ body: '{"amount":"1.5"}' });
    expect(seen?.headers['idempotency-key']).toBe('k-1');
  });

  it('rejects a business refusal (HTTP 200) as ApiError with its code, message and data', async () => {
    answerWith(200, { code: 3001, message: 'Insufficient balance', data: { need: '2' } });
    const error = await client()
      .post('/transfer/transferByUID', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 3001, message: 'Insufficient balance', data: { need: '2' }, status: 200 });
  });

  it('rejects a fault envelope with its HTTP status, and tells the front end of every envelope', async () => {
    envelopes.length = 0;
    answerWith(429, { code: 1002, message: 'Too many requests', data: null });
    await expect(client().get('/configs')).rejects.toMatchObject({ code: 1002, status: 429 });
    expect(envelopes).toEqual([{ code: 1002, token: 'Bearer abc' }]);
  });

  it('rejects an answer that is no envelope with code -1 and the status text', async () => {
    answerWith(502, '<html>bad gateway</html>', 'text/html');
    await expect(client().get('/configs')).rejects.toMatchObject({ code: NOT_AN_ENVELOPE, status: 502, message: 'Bad Gateway' });
  });

  it('uploads a form as multipart', async () => {
    answerWith(200, { code: 0, message: 'ok', data: { url: '/uploads/x.png' } });
    const form = new FormData();
    form.append('file', new Blob(['png']), 'x.png');
    await expect(client().upload('/admin/uploads', form)).resolves.toEqual({ url: '/uploads/x.png' });
    expect(seen?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('builds the URL from the base, the path and the query', () => {
    expect(urlOf('/api', '/admin/users', { q: 'x', page: 1, uid: undefined })).toBe('/api/admin/users?q=x&page=1');
    expect(urlOf('/api', '/admin/users')).toBe('/api/admin/users');
  });
});
