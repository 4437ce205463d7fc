import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('./connectivity', () => ({ reportAnswered: vi.fn() }));

class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}
// The node test environment has no Web Storage; the language is read from it.
Object.assign(globalThis, { localStorage: new MemoryStorage(), sessionStorage: new MemoryStorage() });

const { publicGet } = await import('./public-get');
const { reportAnswered } = await import('./connectivity');
const { local, STORAGE_KEYS } = await import('./storage');

/** A real HTTP server standing in for the API: each path answers its body; the headers seen are kept. */
const answers: Record<string, { status: number; body: string }> = {
  '/api/swap/rates': { status: 200, body: JSON.stringify({ code: 0, message: 'ok', data: { list: [{ rate: '2991' }] } }) },
  '/api/refused': { status: 200, body: JSON.stringify({ code: 1001, message: 'bad', data: null }) },
  '/api/html': { status: 200, body: '<!doctype html><p>interstitial</p>' },
};
const seen: http.IncomingHttpHeaders[] = [];
let server: http.Server;
let origin = '';
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers);
    const answer = answers[req.url ?? ''] ?? { status: 404, body: JSON.stringify({ code: 404, message: 'no', data: null }) };
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The app's paths are same-origin ('/api/...'); node's fetch needs the origin spelled out.
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => realFetch(`${origin}${url}`, init));
});
afterAll(() => {
  vi.unstubAllGlobals();
  server.close();
});

describe('publicGet', () => {
  it("resolves a success envelope's data, asking in the stored language", async () => {
    local.set(STORAGE_KEYS.language, 'en-US');
    expect(await publicGet('/swap/rates')).toEqual({ list: [{ rate: '2991' }] });
    expect(seen.at(-1)).toMatchObject({ 'accept-language': 'en-US', accept: 'application/json' });
    expect(reportAnswered).toHaveBeenLastCalledWith(true);
  });

  it('rejects a refusal, an answer that is not an envelope and a 404, each as answered', async () => {
    await expect(publicGet('/refused')).rejects.toThrow('no success envelope');
    await expect(publicGet('/html')).rejects.toThrow();
    await expect(publicGet('/nothing-here')).rejects.toThrow('HTTP 404');
    expect(reportAnswered).toHaveBeenLastCalledWith(true);
  });

  it('rejects when nothing answers and reports it (the offline banner), but not for a cancel', async () => {
    const down = vi.fn((_url: string, _init?: RequestInit) => Promise.reject(new TypeError('fetch failed')));
    vi.stubGlobal('fetch', down);
    await expect(publicGet('/swap/rates')).rejects.toThrow('fetch failed');
    expect(reportAnswered).toHaveBeenLastCalledWith(false);
    vi.mocked(reportAnswered).mockClear();
    const controller = new AbortController();
    controller.abort();
    await expect(publicGet('/swap/rates', controller.signal)).rejects.toThrow();
    expect(reportAnswered).not.toHaveBeenCalled();
  });
});
