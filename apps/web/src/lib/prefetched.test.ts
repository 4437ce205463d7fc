import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./notify', () => ({ toastDanger: vi.fn(), toastSuccess: vi.fn(), notifyDanger: vi.fn() }));
vi.mock('./navigation', () => ({ goToLogin: vi.fn(), registerNavigate: vi.fn() }));

const items = new Map<string, string>();
const memory = {
  getItem: (key: string) => items.get(key) ?? null,
  setItem: (key: string, value: string) => void items.set(key, value),
  removeItem: (key: string) => void items.delete(key),
  clear: () => items.clear(),
};
// index.html's inline script leaves its answers on window (node has none: a bare object).
Object.assign(globalThis, { localStorage: memory, sessionStorage: memory, window: {} });

const { apiClient, apiGet } = await import('./api-client');
const { PREFETCH_MAX_AGE_MS, takePrefetched } = await import('./prefetched');
const { STORAGE_KEYS } = await import('./storage');
await (await import('./i18n')).initI18n('en-US');

let seen: InternalAxiosRequestConfig[] = [];
const adapter: AxiosAdapter = async (config) => {
  seen.push(config);
  return { data: { code: 0, message: 'ok', data: 'from the client' }, status: 200, statusText: '', headers: {}, config } as AxiosResponse;
};

function early(url: string, body: unknown, { token = 'Bearer abc', age = 0 } = {}) {
  window.__cofferData = { ...window.__cofferData, [url]: { at: performance.now() - age, token, answer: Promise.resolve(body as never) } };
}

beforeEach(() => {
  seen = [];
  items.clear();
  window.__cofferData = {};
  apiClient.defaults.adapter = adapter;
  localStorage.setItem(STORAGE_KEYS.accessToken, 'Bearer abc');
});

describe('answers asked for by index.html on a first open', () => {
  it('serves the first GET of the path from the early answer, once', async () => {
    early('/currency/list', { code: 0, message: 'ok', data: [{ id: 1 }] });
    expect(await apiGet('/currency/list')).toEqual([{ id: 1 }]);
    expect(seen).toHaveLength(0);
    expect(await apiGet('/currency/list')).toBe('from the client');
    expect(seen).toHaveLength(1);
  });

  it('asks again after a refusal, a failure, another session or when stale', async () => {
    early('/a', { code: 2001, message: 'not signed in', data: null });
    early('/b', null);
    early('/c', { code: 0, message: 'ok', data: 'old session' }, { token: 'Bearer other' });
    early('/d', { code: 0, message: 'ok', data: 'stale' }, { age: PREFETCH_MAX_AGE_MS + 1 });
    for (const url of ['/a', '/b', '/c', '/d']) expect(await apiGet(url)).toBe('from the client');
    expect(seen.map((c) => c.url)).toEqual(['/a', '/b', '/c', '/d']);
  });

  it('never serves a GET with parameters from it', async () => {
    early('/notice/list', { code: 0, message: 'ok', data: 'early' });
    expect(await apiGet('/notice/list', { page: 2 })).toBe('from the client');
    expect(takePrefetched('/notice/list')).toBeDefined();
  });
});
