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
const { ApiError } = await import('@coffer/api-client/api-error');
const { toastDanger } = await import('./notify');
const { PREFETCH_MAX_AGE_MS, takePrefetched } = await import('./prefetched');
const { STORAGE_KEYS } = await import('./storage');
await (await import('./i18n')).initI18n('en-US');

let seen: InternalAxiosRequestConfig[] = [];
const adapter: AxiosAdapter = async (config) => {
  seen.push(config);
  return { data: { code: 0, message: 'ok', data: 'from the client' }, status: 200, statusText: '', headers: {}, config } as AxiosResponse;
};

/** What index.html's script keeps: the status and the parsed body, or null when the request failed. */
function early(url: string, body: unknown, { token = 'Bearer abc', age = 0, status = 200 } = {}) {
  const answer = Promise.resolve(body === null ? null : { status, statusText: '', body });
  window.__cofferData = { ...window.__cofferData, [url]: { at: performance.now() - age, token, answer } };
}

beforeEach(() => {
  seen = [];
  vi.clearAllMocks();
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

  it('treats an early refusal as the answer: shown once, not asked again', async () => {
    early('/getCurrentUser', { code: 4003, message: 'forbidden', data: null }, { status: 403 });
    await expect(apiGet('/getCurrentUser')).rejects.toBeDefined();
    early('/configs', { code: 1001, message: 'refused', data: null });
    await expect(apiGet('/configs')).rejects.toBeInstanceOf(ApiError);
    expect(toastDanger).toHaveBeenCalledWith('refused');
    expect(seen).toHaveLength(0);
  });

  it('asks again when the early request failed, for another session or when stale', async () => {
    early('/b', null);
    early('/c', { code: 0, message: 'ok', data: 'old session' }, { token: 'Bearer other' });
    early('/d', { code: 0, message: 'ok', data: 'stale' }, { age: PREFETCH_MAX_AGE_MS + 1 });
    for (const url of ['/b', '/c', '/d']) expect(await apiGet(url)).toBe('from the client');
    expect(seen.map((c) => c.url)).toEqual(['/b', '/c', '/d']);
  });

  it('never serves a GET with parameters from it', async () => {
    early('/notice/list', { code: 0, message: 'ok', data: 'early' });
    expect(await apiGet('/notice/list', { page: 2 })).toBe('from the client');
    expect(takePrefetched('/notice/list')).toBeDefined();
  });
});
