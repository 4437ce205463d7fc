import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

/**
 * Every answer is the envelope {code, message, data} (docs/product.md §5.3), also the ones produced
 * before a route runs: Node's HTTP parser (431, 400), the router (414, malformed escapes)
 * and the rate limiter (429). Over a real socket, because inject() skips the parser.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as is to a fresh connection and reads the answer until the server closes. */
function raw(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    // The server may reset the connection after answering a parser error.
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
    socket.write(request);
  });
}

const get = (path: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: en-US\r\n${extra}Connection: close\r\n\r\n`;

function expectEnvelope(res: RawResponse, status: number, code: number) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'data', 'message']);
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.message).not.toMatch(/FST_|statusCode|Client Error/);
  return body;
}

describe('answers outside the routes keep the envelope (real HTTP)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it('431 for headers larger than the parser allows', async () => {
    const res = await raw(port, get('/api/health', `X-Big: ${'a'.repeat(20_000)}\r\n`));
    expectEnvelope(res, 431, 1001);
  });

  it('431 for a query string larger than the parser allows', async () => {
    const res = await raw(port, get(`/api/health?q=${'a'.repeat(20_000)}`));
    expectEnvelope(res, 431, 1001);
  });

  it('400 for a request the HTTP parser refuses', async () => {
    expectEnvelope(await raw(port, 'GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'), 400, 1001);
    expectEnvelope(await raw(port, 'NONSENSE\r\n\r\n'), 400, 1001);
  });

  it('414 for a path parameter longer than the router allows', async () => {
    const res = await raw(port, get(`/api/swap/${'1'.repeat(500)}`));
    expectEnvelope(res, 414, 1001);
  });

  it('400 for a malformed escape in the URL', async () => {
    const res = await raw(port, get('/api/swap/%E0%A4%A'));
    expectEnvelope(res, 400, 1001);
  });

  it('429 keeps its status, but the body is exactly the envelope with code 1002', async () => {
    let res: RawResponse | undefined;
    // Unauthenticated calls count too: the limiter runs before the session check.
    for (let i = 0; i < 500 && res?.status !== 429; i++) {
      res = await raw(port, get('/api/transfer/recipient?email=a%40b.c'));
    }
    const body = expectEnvelope(res!, 429, 1002);
    expect(body.message).toBe('Too many requests, please try again later');
    expect(Number(res!.headers['retry-after'])).toBeGreaterThan(0);
  });
});
